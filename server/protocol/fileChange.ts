// The fileChange item (an apply_patch call: the changes it proposes and whether they were applied)
// and turn/diff/updated, the whole turn's changes as one unified diff.
import { Type, type Static } from '@sinclair/typebox';
import { Opt, Shape, StringEnum } from './schema';

export const PatchChangeKind = Type.Union([
  Type.Object({ type: Type.Literal('add') }),
  Type.Object({ type: Type.Literal('delete') }),
  Type.Object({ type: Type.Literal('update'), move_path: Opt(Type.String()) }),
]);
export type PatchChangeKind = Static<typeof PatchChangeKind>;

/**
 * One file of a patch. `diff` is the new content for `add`, the old content for `delete`, and
 * unified `@@` hunks without file headers for `update` (clients rebuild the proposed file from it).
 */
export const FileUpdateChange = Type.Object({
  path: Type.String(),
  kind: PatchChangeKind,
  diff: Type.String(),
});
export type FileUpdateChange = Static<typeof FileUpdateChange>;

export const PatchApplyStatus = StringEnum(['inProgress', 'completed', 'failed', 'declined']);
export type PatchApplyStatus = Static<typeof PatchApplyStatus>;

export const FileChangeItem = Type.Object({
  type: Type.Literal('fileChange'),
  id: Type.String(),
  changes: Type.Array(FileUpdateChange),
  status: PatchApplyStatus,
});
export type FileChangeItem = Static<typeof FileChangeItem>;

export const fileChangeNotifications = {
  'turn/diff/updated': Shape({ threadId: Type.String(), turnId: Type.String(), diff: Type.String() }),
  /** What apply_patch answers (what the model is told), before the item completes. */
  'item/fileChange/outputDelta': Shape({
    threadId: Type.String(),
    turnId: Type.String(),
    itemId: Type.String(),
    delta: Type.String(),
  }),
} as const;
