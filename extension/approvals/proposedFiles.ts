// What a proposed file change would do to each file: its content now and its content after the change,
// rebuilt from the fileChange item (whole contents for add and delete, `@@` hunks for update, a move's
// destination). Pure, so it is unit-tested without an editor.
import { applyPatch, parsePatch } from 'diff';
import type { FileUpdateChange } from '../../server/protocol/fileChange';

export interface ProposedFile {
  /** The path as the fileChange item names it (what an edited answer must name). */
  path: string;
  /** Where the proposed content ends up: the path, or a move's destination. */
  target: string;
  kind: 'add' | 'delete' | 'update' | 'move';
  current: string;
  proposed: string;
}

/**
 * Each change with both sides; `readCurrent` gives a file's text now ('' when it does not exist).
 * Throws when an update's hunks do not fit the file (it changed since the agent read it).
 */
export async function proposedFiles(
  changes: readonly FileUpdateChange[],
  readCurrent: (path: string) => Promise<string>,
): Promise<ProposedFile[]> {
  const files: ProposedFile[] = [];
  for (const change of changes) {
    const { path, kind, diff } = change;
    if (kind.type === 'add') {
      files.push({ path, target: path, kind: 'add', current: '', proposed: diff });
    } else if (kind.type === 'delete') {
      // The item holds the content it deletes; the file itself is what really goes.
      const current = (await readCurrent(path)) || diff;
      files.push({ path, target: path, kind: 'delete', current, proposed: '' });
    } else {
      const current = await readCurrent(path);
      const target = kind.move_path ?? path;
      files.push({
        path,
        target,
        kind: target === path ? 'update' : 'move',
        current,
        proposed: applied(current, diff, path),
      });
    }
  }
  return files;
}

function applied(current: string, hunks: string, path: string): string {
  const [patch] = parsePatch(hunks);
  if (!patch || patch.hunks.length === 0) return current;
  const result = applyPatch(current, patch);
  if (result === false) throw new Error(`the proposed change to ${path} no longer fits the file`);
  return result;
}
