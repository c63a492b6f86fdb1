// Writes a planned patch: all its files or none. Each file is written to its real target (links
// resolved when the patch was planned) through a temporary sibling renamed over it, keeping its
// mode; when one write fails, what was already done is undone: replaced and deleted files get
// their old bytes back, and only what this patch created is removed (a created file only while it
// still holds what the patch wrote, a created folder only while it is empty). A crash between two
// files leaves each file old or new.
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { realTarget } from '../../sandbox/realTarget';
import { readFileNoFollow, writeFileAtomic } from './atomicFile';
import type { FileWrite } from './planPatch';

export class PatchWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchWriteError';
  }
}

type Undo =
  | { kind: 'created'; target: string; bytes: Buffer }
  | { kind: 'restore'; target: string; bytes: Buffer; mode: number }
  | { kind: 'dir'; path: string };

export async function commitWrites(writes: FileWrite[]): Promise<void> {
  await checkUnchanged(writes);
  const undo: Undo[] = [];
  for (const write of writes) {
    try {
      await applyWrite(write, undo);
    } catch (error) {
      const failures = await rollBack(undo);
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
  for (const { path, target, before } of writes) {
    const now = await readFileNoFollow(target).catch(() => undefined);
    const same = now === undefined ? false : now === null ? before === null : before?.equals(now);
    if (!same) {
      throw new PatchWriteError(
        `${path} changed after the patch was made; no file was changed. Read it again and make a new patch.`,
      );
    }
  }
}

async function applyWrite(write: FileWrite, undo: Undo[]): Promise<void> {
  const { target, before, after } = write;
  // A folder on the way that became a link since the patch was checked would lead the write elsewhere.
  if ((await realTarget(target)) !== target) throw new Error('a folder on its way became a symbolic link');
  if (before === null) {
    await makeParents(dirname(target), undo);
    await writeFileAtomic(target, after!);
    undo.push({ kind: 'created', target, bytes: after! });
    return;
  }
  const mode = (await fs.lstat(target)).mode & 0o7777;
  if (after === null) await fs.unlink(target);
  else await writeFileAtomic(target, after, mode);
  undo.push({ kind: 'restore', target, bytes: before, mode });
}

/** Creates the missing folders above a new file, one at a time, so each can be undone alone. */
async function makeParents(dir: string, undo: Undo[]): Promise<void> {
  const missing: string[] = [];
  for (let d = dir; !(await fs.lstat(d).catch(() => null)); d = dirname(d)) missing.unshift(d);
  for (const path of missing) {
    await fs.mkdir(path);
    undo.push({ kind: 'dir', path });
  }
}

/** Undoes the steps in reverse; returns the paths it could not restore. */
async function rollBack(undo: Undo[]): Promise<string[]> {
  const failures: string[] = [];
  for (const step of [...undo].reverse()) {
    try {
      if (step.kind === 'restore') await writeFileAtomic(step.target, step.bytes, step.mode);
      else if (step.kind === 'created') {
        const now = await readFileNoFollow(step.target);
        if (now?.equals(step.bytes)) await fs.unlink(step.target);
      } else {
        // Not recursive: a folder someone else put files in meanwhile stays.
        await fs.rmdir(step.path).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
        });
      }
    } catch {
      failures.push(step.kind === 'dir' ? step.path : step.target);
    }
  }
  return failures;
}
