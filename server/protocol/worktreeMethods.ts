// Threadline's own experimental methods over a thread started in its own git worktree
// (thread/start's `worktree`): bring its changes into the workspace, or throw them away.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape } from './schema';

/**
 * thread/start's experimental `worktree`: a new branch and worktree from `base` (default HEAD);
 * `carryChanges` copies the workspace's uncommitted changes (tracked and untracked, not ignored) into
 * it, leaving the workspace as it is.
 */
export const WorktreeStartOption = Type.Object(
  { base: Opt(Type.String({ minLength: 1 })), carryChanges: Opt(Type.Boolean()) },
  { additionalProperties: false },
);

export const WorktreeApplyParams = Params({ threadId: Type.String({ minLength: 1 }) });

/**
 * How a conflicting file was left, both sides kept: `markers` (the workspace file holds both
 * versions between conflict markers), `theirsBeside` (the workspace file untouched, the thread's
 * version written next to it at `theirsPath`), `oursKept` (the thread deleted a file the workspace
 * changed: the workspace's file stays).
 */
export const WorktreeConflict = Type.Object({
  path: Type.String(),
  resolution: Type.Union([Type.Literal('markers'), Type.Literal('theirsBeside'), Type.Literal('oursKept')]),
  theirsPath: Nullable(Type.String()),
  reason: Type.String(),
});
export type WorktreeConflict = Static<typeof WorktreeConflict>;

export const WorktreeApplyResponse = Shape({
  /** `merge`: a fast-forward of the workspace's branch (it was clean, on the base); `patch`: files written; `none`: nothing to bring. */
  mode: Type.Union([Type.Literal('merge'), Type.Literal('patch'), Type.Literal('none')]),
  branch: Type.String(),
  /** The worktree's commit that was applied (its uncommitted changes are committed on its branch first). */
  commit: Type.String(),
  /** Files brought over (relative to the repository root). */
  applied: Type.Array(Type.String()),
  /** Files the workspace had changed too, merged with no conflict (the user's changes kept). */
  merged: Type.Array(Type.String()),
  conflicts: Type.Array(WorktreeConflict),
  /** Files not brought over (symbolic links, submodules, protected paths), with why. */
  skipped: Type.Array(Type.Object({ path: Type.String(), reason: Type.String() })),
});

export const WorktreeDiscardParams = Params({
  threadId: Type.String({ minLength: 1 }),
  /** Only say what would be removed and lost. */
  dryRun: Opt(Type.Boolean()),
});
export const WorktreeDiscardResponse = Shape({
  worktreePath: Type.String(),
  branch: Type.String(),
  /** Whether they were removed (false for a dry run). */
  removed: Type.Boolean(),
  /** Files changed in the worktree and not committed. */
  uncommittedFiles: Type.Array(Type.String()),
  /** Commits on the branch that are not on its base, newest first (sha and subject). */
  commits: Type.Array(Type.Object({ sha: Type.String(), subject: Type.String() })),
});

export const WorktreeReadParams = Params({
  threadId: Type.String({ minLength: 1 }),
  /** Also answer the unified diff of the worktree against its base (costlier: only for a review). */
  includeDiff: Opt(Type.Boolean()),
});
export const WorktreeReadResponse = Shape({
  worktreePath: Type.String(),
  branch: Type.String(),
  /** The commit the worktree is compared with: where its branch started, or what was last applied. */
  baseSha: Type.String(),
  /** Files that differ from the base (committed or not, untracked ones too), relative to the worktree. */
  changedFiles: Type.Array(Type.String()),
  /** `git diff` of the worktree against the base, untracked files as new ones; null unless asked. */
  diff: Nullable(Type.String()),
});
