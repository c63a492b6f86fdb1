// Writes a planned patch: all its files or none. Each file is written in place (keeping its mode
// and links); when one write fails, the files already written get their old bytes back, files
// created are removed with the directories made for them, and the error names the file at fault.
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import type { FileWrite } from './planPatch';

export class PatchWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchWriteError';
  }
}

export async function commitWrites(writes: FileWrite[]): Promise<void> {
  await checkUnchanged(writes);
  const done: FileWrite[] = [];
  const madeDirs: string[] = [];
  for (const write of writes) {
    try {
      await applyWrite(write, madeDirs);
      done.push(write);
    } catch (error) {
      const failures = await rollBack(done, madeDirs);
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      const rolled = failures.length
        ? `; restoring the files already written failed for ${failures.join(', ')}`
        : '; no file was changed';
      throw new PatchWriteError(
        `cannot ${write.after === null ? 'delete' : 'write'} ${write.path} (${code})${rolled}`,
      );
    }
  }
}

/** The plan was made from the files as they were; refuses to write over a change made since. */
async function checkUnchanged(writes: FileWrite[]): Promise<void> {
  for (const { path, before } of writes) {
    const now = await fs.readFile(path).catch(() => null);
    if (now === null ? before !== null : before === null || !now.equals(before)) {
      throw new PatchWriteError(
        `${path} changed after the patch was made; no file was changed. Read it again and make a new patch.`,
      );
    }
  }
}

async function applyWrite(write: FileWrite, madeDirs: string[]): Promise<void> {
  if (write.after === null) return fs.unlink(write.path);
  if (write.before === null) {
    const first = await fs.mkdir(dirname(write.path), { recursive: true });
    if (first) madeDirs.push(first);
  }
  await fs.writeFile(write.path, write.after);
}

/** Undoes `done` in reverse; returns the paths it could not restore. */
async function rollBack(done: FileWrite[], madeDirs: string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const write of [...done].reverse()) {
    try {
      if (write.before === null) await fs.unlink(write.path);
      else await fs.writeFile(write.path, write.before);
    } catch {
      failures.push(write.path);
    }
  }
  for (const dir of madeDirs.reverse()) {
    await fs.rm(dir, { recursive: true, force: true }).catch(() => failures.push(dir));
  }
  return failures;
}
