// File contents a thread's checkpoints refer to, each stored once under its SHA-256 (a file that
// several turns or commands saw unchanged costs one copy). Blobs nothing refers to any more are
// swept when a turn ends.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../tools/applyPatch/atomicFile';

const HASH = /^[0-9a-f]{64}$/;

export const hashOf = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export class BlobStore {
  constructor(private readonly dir: string) {}

  /** Stores the bytes unless a blob with their hash exists; returns the hash. */
  async put(bytes: Buffer): Promise<string> {
    const hash = hashOf(bytes);
    const path = join(this.dir, hash);
    if (
      await fs.access(path).then(
        () => true,
        () => false,
      )
    )
      return hash;
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, bytes, 0o600);
    return hash;
  }

  /** The bytes of a blob; a missing or altered blob is an error, never silently other content. */
  async get(hash: string): Promise<Buffer> {
    if (!HASH.test(hash)) throw new Error(`not a content hash: ${hash}`);
    const bytes = await fs.readFile(join(this.dir, hash));
    if (hashOf(bytes) !== hash) throw new Error(`the stored content ${hash.slice(0, 12)} is damaged`);
    return bytes;
  }

  async has(hash: string): Promise<boolean> {
    return (
      HASH.test(hash) &&
      (await fs.access(join(this.dir, hash)).then(
        () => true,
        () => false,
      ))
    );
  }

  /** Removes every blob not in `keep`. */
  async sweep(keep: Set<string>): Promise<void> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => HASH.test(name) && !keep.has(name))
        .map((name) => fs.rm(join(this.dir, name), { force: true })),
    );
  }
}
