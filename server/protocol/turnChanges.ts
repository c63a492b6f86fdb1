// Threadline's own experimental methods over a turn's recorded file changes (its checkpoint):
// thread/turn/changes/list shows what the turn changed on disk, thread/turn/changes/revert puts
// those files back. The reference's thread/revert only rewrites history, never files; these names
// stay clear of it. File entries follow the reference's FileUpdateChange field for field.
import { Type, type Static } from '@sinclair/typebox';
import { PatchChangeKind } from './fileChange';
import { Nullable, Opt, Params, Shape } from './schema';

const TurnRef = { threadId: Type.String({ minLength: 1 }), turnId: Type.String({ minLength: 1 }) };

export const TurnChangesListParams = Params(TurnRef);

export const TurnFileChange = Shape({
  path: Type.String(),
  kind: PatchChangeKind,
  /** A git-style diff from the file before the turn to the file after it (empty for binary files). */
  diff: Type.String(),
  /** Why reverting this file now would be refused (it changed since the turn), or null. */
  conflict: Nullable(Type.String()),
});
export type TurnFileChange = Static<typeof TurnFileChange>;

export const TurnChangesListResponse = Shape({
  files: Type.Array(TurnFileChange),
  /** What the checkpoint could not capture (a command's changes beyond its bounds, say). */
  notes: Type.Array(Type.String()),
});

export const TurnChangesRevertParams = Params({
  ...TurnRef,
  /** Revert files changed again since the turn too, losing those later changes. */
  overwrite: Opt(Type.Boolean()),
  /** Only these files (absolute paths as listed); all of the turn's files when omitted. */
  paths: Opt(Type.Array(Type.String())),
});

export const SkippedFile = Shape({ path: Type.String(), reason: Type.String() });

export const TurnChangesRevertResponse = Shape({
  reverted: Type.Array(Type.String()),
  skipped: Type.Array(SkippedFile),
  /** The turn that records the revert (its fileChange item), or null when nothing was reverted. */
  turnId: Nullable(Type.String()),
});
export type TurnChangesRevertResponse = Static<typeof TurnChangesRevertResponse>;
