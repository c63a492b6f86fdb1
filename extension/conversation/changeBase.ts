// What a changed file looked like before the agent's change, worked back from the file as it is now and
// the change's unified diff. Pure, so it is unit-tested without an editor.
import { applyPatch, parsePatch, reversePatch, type StructuredPatch } from 'diff';

export interface ChangedFile {
  /** Workspace-relative (or absolute) path of the file after the change. */
  path: string;
  patch: StructuredPatch;
}

/** The files of a multi-file unified diff (`diff --git` or plain `---`/`+++` sections). */
export function changedFiles(diff: string): ChangedFile[] {
  return parsePatch(diff)
    .filter((patch) => patch.hunks.length > 0 || patch.newFileName || patch.oldFileName)
    .map((patch) => ({ path: stripPrefix(pickName(patch)), patch }));
}

/** The content before the change, or undefined when the diff does not fit the current file. */
export function contentBefore(current: string, patch: StructuredPatch): string | undefined {
  const result = applyPatch(current, reversePatch(patch));
  return result === false ? undefined : result;
}

/** For one file's change as a fileChange item carries it: `add` and `delete` hold the whole content. */
export function sidesOfChange(
  kind: string,
  diff: string,
  current: string,
): { before: string; after: string } | undefined {
  if (kind === 'add') return { before: '', after: current || diff };
  if (kind === 'delete') return { before: diff, after: '' };
  const [patch] = parsePatch(diff);
  if (!patch) return undefined;
  const before = contentBefore(current, patch);
  return before === undefined ? undefined : { before, after: current };
}

function pickName(patch: StructuredPatch): string {
  const name = patch.newFileName && patch.newFileName !== '/dev/null' ? patch.newFileName : patch.oldFileName;
  return name ?? '';
}

function stripPrefix(name: string): string {
  return name.replace(/^[ab]\//, '');
}
