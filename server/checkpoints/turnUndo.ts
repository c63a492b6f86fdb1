// Undoing turns' file changes, as the methods use it: list a turn's changes with diffs and whether
// each can be put back, put them back (recorded as a change of the turn doing it, so that one can
// be undone in turn), and put back everything a rollback drops, all or nothing.
import type { FileUpdateChange } from '../protocol/fileChange';
import type { TurnFileChange } from '../protocol/turnChanges';
import { readFileNoFollow } from '../tools/applyPatch/atomicFile';
import { shownPath } from '../tools/applyPatch/planPatch';
import { gitFileDiff, unifiedHunks } from '../tools/applyPatch/unifiedDiff';
import type { BlobStore } from './blobStore';
import type { CheckpointStore } from './checkpointStore';
import { applyRevert, conflictOf, currentState, planRevert, type RevertStep } from './revertFiles';
import { changedFiles, mergeRecords, type FileRecord, type FileState, type TurnRecord } from './turnRecord';

export interface Skipped {
  path: string;
  reason: string;
}

/** The text of a stored state, or null for no file; binary content shows as no diff. */
async function textOf(blobs: BlobStore, state: FileState | null): Promise<string | null | undefined> {
  if (state === null) return null;
  const bytes = await blobs.get(state.hash);
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

export async function listChanges(
  store: CheckpointStore,
  threadId: string,
  turnId: string,
  cwd: string,
): Promise<{ files: TurnFileChange[]; notes: string[] }> {
  const record = await store.read(threadId, turnId);
  const blobs = store.blobs(threadId);
  const files: TurnFileChange[] = [];
  for (const file of changedFiles(record)) {
    const before = await textOf(blobs, file.before);
    const after = await textOf(blobs, file.after);
    const diff =
      before === undefined || after === undefined
        ? ''
        : gitFileDiff(shownPath(cwd, file.path), before, after);
    files.push({
      path: file.path,
      kind: kindOf(file.before, file.after),
      diff,
      conflict: conflictOf(file, await currentState(file.target)),
    });
  }
  return { files, notes: record.notes };
}

const kindOf = (before: FileState | null, after: FileState | null): FileUpdateChange['kind'] =>
  before === null
    ? { type: 'add' }
    : after === null
      ? { type: 'delete' }
      : { type: 'update', move_path: null };

/** The files of a turn a revert would touch: all, or the ones named (each must be the turn's). */
export function selectFiles(record: TurnRecord, paths: string[] | null | undefined): FileRecord[] | string {
  const files = changedFiles(record);
  if (!paths) return files;
  const unknown = paths.filter((path) => !files.some((file) => file.path === path));
  if (unknown.length) return `not changed by this turn: ${unknown.join(', ')}`;
  return files.filter((file) => paths.includes(file.path));
}

export interface RevertOutcome {
  reverted: RevertStep[];
  skipped: Skipped[];
}

/** Puts the files back; each one changed since is skipped with why, unless `overwrite`. */
export async function revertFiles(
  store: CheckpointStore,
  threadId: string,
  files: FileRecord[],
  overwrite: boolean,
): Promise<RevertOutcome> {
  const plan = await planRevert(files, overwrite);
  const blobs = store.blobs(threadId);
  // What an overwrite replaces is kept too, so the revert can itself be undone.
  for (const step of plan.steps) {
    if (step.current && !(await blobs.has(step.current.hash))) {
      const bytes = await readFileNoFollow(step.target);
      if (bytes) step.current = { ...step.current, hash: await blobs.put(bytes) };
    }
  }
  const failed = await applyRevert(store.dirOf(threadId), blobs, plan.steps);
  return {
    reverted: plan.steps.filter((step) => !failed.some((f) => f.path === step.path)),
    skipped: [...plan.skipped, ...failed],
  };
}

/**
 * Before a rollback drops `turnIds` (oldest first): puts back what they changed, or nothing at all
 * when any file was changed since; returns why not, or null once done.
 */
export async function revertDroppedTurns(
  store: CheckpointStore,
  threadId: string,
  turnIds: string[],
): Promise<string | null> {
  const merged = mergeRecords(await Promise.all(turnIds.map((id) => store.read(threadId, id))));
  const plan = await planRevert(changedFiles(merged), false);
  if (plan.skipped.length) {
    return `the files of the dropped turns cannot be reverted, so nothing was changed: ${plan.skipped
      .map((s) => `${s.path} (${s.reason})`)
      .join('; ')}`;
  }
  const failed = await applyRevert(store.dirOf(threadId), store.blobs(threadId), plan.steps);
  if (failed.length) return `reverting failed for ${failed.map((f) => `${f.path} (${f.reason})`).join('; ')}`;
  return null;
}

/** The revert as a fileChange item's changes: from what the files held to what they hold again. */
export async function revertChanges(blobs: BlobStore, steps: RevertStep[]): Promise<FileUpdateChange[]> {
  const changes: FileUpdateChange[] = [];
  for (const step of steps) {
    const kind = kindOf(step.current, step.restore);
    const now = (await textOf(blobs, step.current)) ?? '';
    const then = (await textOf(blobs, step.restore)) ?? '';
    const diff = kind.type === 'add' ? then : kind.type === 'delete' ? now : unifiedHunks(now, then);
    changes.push({ path: step.path, kind, diff });
  }
  return changes;
}

/** What the model reads on its next turn, so it does not build on files that are gone. */
export function revertNote(turnId: string, reverted: RevertStep[], skipped: Skipped[], cwd: string): string {
  const lines = [
    `The user undid the file changes of an earlier turn (${turnId}). These files hold again what they held before that turn:`,
    ...reverted.map((step) => `- ${shownPath(cwd, step.path)}`),
  ];
  if (skipped.length) {
    lines.push(
      'Not undone (left as they are):',
      ...skipped.map((s) => `- ${shownPath(cwd, s.path)}: ${s.reason}`),
    );
  }
  return lines.join('\n');
}
