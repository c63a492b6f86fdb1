// Puts files back as a checkpoint recorded them. Each file is checked first: one that no longer
// holds what the turn left there (changed by the user or a later turn) is skipped with the reason,
// unless the caller says to overwrite. The writes are listed in a journal before the first one and
// each goes through a temporary sibling renamed over the file, so a crash leaves every file old or
// new, and the journal lets the next start finish the job.
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { realTarget } from '../sandbox/realTarget';
import { readFileNoFollow, writeFileAtomic } from '../tools/applyPatch/atomicFile';
import { hashOf, type BlobStore } from './blobStore';
import { sameState, type FileRecord, type FileState } from './turnRecord';

/** One file to put back: it holds `current` now and gets `restore`. */
export interface RevertStep {
  path: string;
  target: string;
  current: FileState | null;
  restore: FileState | null;
}

export interface RevertPlan {
  steps: RevertStep[];
  skipped: { path: string; reason: string }[];
}

const JOURNAL = 'revert-journal.json';

/** The file as it is now: its state, or why it cannot be compared. */
export async function currentState(target: string): Promise<FileState | null | { problem: string }> {
  try {
    if ((await realTarget(target)) !== target)
      return { problem: 'a folder on its way is now a symbolic link' };
    const bytes = await readFileNoFollow(target);
    if (bytes === null) return null;
    const { mode } = await fs.lstat(target);
    return { hash: hashOf(bytes), mode: mode & 0o7777 };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      problem: code === 'ELOOP' ? 'it is now a symbolic link' : `it cannot be read (${code ?? error})`,
    };
  }
}

/** Why reverting this file now would overwrite someone's later work, or null. */
export function conflictOf(file: FileRecord, now: FileState | null | { problem: string }): string | null {
  if (now !== null && 'problem' in now) return now.problem;
  if (sameState(now, file.after)) return null;
  if (now === null) return 'it was deleted after this turn';
  if (file.after === null) return 'it was created again after this turn';
  return 'it was changed after this turn';
}

export async function planRevert(files: FileRecord[], overwrite: boolean): Promise<RevertPlan> {
  const plan: RevertPlan = { steps: [], skipped: [] };
  for (const file of files) {
    const now = await currentState(file.target);
    const conflict = conflictOf(file, now);
    const unreadable = now !== null && 'problem' in now;
    if (conflict && (!overwrite || unreadable)) {
      plan.skipped.push({ path: file.path, reason: conflict });
      continue;
    }
    const current = now as FileState | null;
    // Already as it was (the user put it back by hand): nothing to write, but it counts as reverted.
    plan.steps.push({ path: file.path, target: file.target, current, restore: file.before });
  }
  return plan;
}

/** Writes the plan under a journal in `dir`; returns the paths it could not write, with why. */
export async function applyRevert(
  dir: string,
  blobs: BlobStore,
  steps: RevertStep[],
): Promise<{ path: string; reason: string }[]> {
  const contents = new Map<string, Buffer>();
  // Every blob is read (and its hash checked) before the first file is touched.
  for (const step of steps) {
    if (step.restore && !contents.has(step.restore.hash))
      contents.set(step.restore.hash, await blobs.get(step.restore.hash));
  }
  const journal = join(dir, JOURNAL);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(journal, Buffer.from(JSON.stringify({ steps })), 0o600);
  const failed: { path: string; reason: string }[] = [];
  for (const step of steps) {
    try {
      await writeStep(step, contents);
    } catch (error) {
      failed.push({
        path: step.path,
        reason: `writing it failed (${(error as NodeJS.ErrnoException).code ?? error})`,
      });
    }
  }
  await fs.rm(journal, { force: true });
  return failed;
}

async function writeStep(step: RevertStep, contents: Map<string, Buffer>): Promise<void> {
  if (sameState(step.current, step.restore) && step.current?.mode === step.restore?.mode) return;
  if (step.restore === null) {
    await fs.rm(step.target, { force: true });
    return;
  }
  await fs.mkdir(dirname(step.target), { recursive: true });
  if ((await realTarget(step.target)) !== step.target)
    throw new Error('a folder on its way became a symbolic link');
  await writeFileAtomic(step.target, contents.get(step.restore.hash)!, step.restore.mode);
}

/**
 * Finishes a revert a crash interrupted: each journaled file that is still old or already new is
 * written (again); one changed by anyone since is left alone.
 */
export async function finishInterruptedRevert(dir: string, blobs: BlobStore): Promise<string[]> {
  const journal = join(dir, JOURNAL);
  const text = await fs.readFile(journal, 'utf8').catch(() => null);
  if (text === null) return [];
  const { steps } = JSON.parse(text) as { steps: RevertStep[] };
  const pending: RevertStep[] = [];
  for (const step of steps) {
    const now = await currentState(step.target);
    if (now !== null && 'problem' in now) continue;
    if (sameState(now, step.current) || sameState(now, step.restore)) pending.push({ ...step, current: now });
  }
  const failed = await applyRevert(dir, blobs, pending);
  return pending.filter((step) => !failed.some((f) => f.path === step.path)).map((step) => step.path);
}
