// File writes that a crash cannot leave half done and a planted symlink cannot redirect: the bytes
// go to a new temporary sibling (created exclusively, never through a link), are flushed, and the
// sibling is renamed over the target, which replaces a link there instead of following it. A
// reader, or a server killed at any moment, sees the old file or the new one, never a mix.
import { constants, promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { renameRetrying } from '../../fs/renameRetrying';

// Windows has no O_NOFOLLOW; there the rename alone keeps the last component from being followed.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Writes `bytes` to `target` atomically, with `mode` (default: a new file's, under the umask). */
export async function writeFileAtomic(target: string, bytes: Buffer, mode?: number): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.threadline-tmp`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
  const handle = await fs.open(temp, flags, mode ?? 0o666);
  try {
    await handle.writeFile(bytes);
    // open() applied the umask; an existing file's mode is kept exactly.
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    await renameRetrying(temp, target);
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.unlink(temp).catch(() => {});
    throw error;
  }
}

/** The file's bytes, or null when it does not exist; ELOOP when the last component is a link. */
export async function readFileNoFollow(path: string): Promise<Buffer | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
