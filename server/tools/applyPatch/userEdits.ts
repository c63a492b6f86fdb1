// A patch the user edited before accepting it (the experimental `acceptWithEdits` decision): the
// plan is rewritten so each edited file is written with the user's content, and its changes are
// recomputed so the fileChange item shows what is really written. An edit names a file as the item
// does (the change's `path`; for a move its destination means the same file). Edited content for a
// file the patch deletes keeps the file, with that content; for a moved file it is the content at the
// destination. Content equal to the proposal is a plain accept of that file. The file's line breaks
// and byte-order mark are kept as the proposal had them, as a patch keeps them.
import type { FileUpdateChange } from '../../protocol/fileChange';
import type { EditedFile } from '../../protocol/serverRequests';
import type { FileWrite, PatchPlan } from './planPatch';
import { decodeText, encodeText, plainText } from './textFile';
import { unifiedHunks } from './unifiedDiff';

export interface EditedPlan {
  plan: PatchPlan;
  /** The files whose content differs from the proposal, where they end up. */
  edited: string[];
}

/** Where a change's proposed content ends up: the file itself, or a move's destination. */
const resultPath = (change: FileUpdateChange) =>
  change.kind.type === 'update' && change.kind.move_path ? change.kind.move_path : change.path;

export function withUserEdits(plan: PatchPlan, edits: EditedFile[]): EditedPlan {
  const contents = new Map<string, string>();
  for (const change of plan.changes) {
    const target = resultPath(change);
    for (const edit of edits)
      if (edit.path === change.path || edit.path === target) contents.set(target, edit.content);
  }
  const edited: string[] = [];
  const writes: FileWrite[] = [];
  for (const write of plan.writes) {
    const content = contents.get(write.path);
    if (content === undefined) {
      writes.push(write);
      continue;
    }
    const after = encodeLike(content, write.after ?? write.before);
    if (write.after !== null && after.equals(write.after)) {
      writes.push(write);
      continue;
    }
    edited.push(write.path);
    // The user may have put the file back as it was: then nothing is written to it.
    if (write.before === null || !after.equals(write.before)) writes.push({ ...write, after });
  }
  if (edited.length === 0) return { plan, edited };
  const before = new Map(plan.writes.map((write) => [write.path, write.before]));
  const after = new Map(writes.map((write) => [write.path, write.after]));
  const changes = plan.changes.flatMap((change) => {
    const target = resultPath(change);
    if (!edited.includes(target)) return [change];
    const final = after.has(target) ? after.get(target)! : (before.get(target) ?? null);
    return recomputed(change, before.get(change.path) ?? null, final);
  });
  return { plan: { changes, writes }, edited };
}

/** The change as applied: from the file before the patch to its final bytes; none when equal. */
function recomputed(
  change: FileUpdateChange,
  before: Buffer | null,
  final: Buffer | null,
): FileUpdateChange[] {
  if (change.kind.type === 'add') return [{ ...change, diff: textOf(final) }];
  const diff = unifiedHunks(textOf(before), textOf(final));
  const moved = change.kind.type === 'update' && change.kind.move_path;
  if (diff === '' && !moved) return [];
  // A kept deletion is an update of the file in place.
  const kind = change.kind.type === 'delete' ? { type: 'update' as const, move_path: null } : change.kind;
  return [{ path: change.path, kind, diff }];
}

/** Text as the item's diffs show it: LF line breaks, no byte-order mark. */
function textOf(bytes: Buffer | null): string {
  if (bytes === null) return '';
  const text = decodeText(bytes);
  return text ? plainText(text) : bytes.toString('utf8');
}

/** The user's content as bytes, with the line breaks and byte-order mark of `like` when it had them. */
function encodeLike(content: string, like: Buffer | null): Buffer {
  const bytes = Buffer.from(content, 'utf8');
  // Any JS string encodes to valid UTF-8, so it always decodes.
  const text = decodeText(bytes);
  const style = like ? decodeText(like) : null;
  if (!text || !style) return bytes;
  return encodeText({ ...text, crlf: text.crlf || style.crlf, bom: text.bom || style.bom });
}
