// Unified diffs of text, through the `diff` library: bare `@@` hunks for a fileChange item, and
// git-style file sections (with `diff --git` headers) for the turn's aggregated diff.
import { createTwoFilesPatch, OMIT_HEADERS } from 'diff';

const CONTEXT_LINES = 3;

/** The `@@` hunks that turn `before` into `after`, without file headers; '' when they are equal. */
export function unifiedHunks(before: string, after: string): string {
  if (before === after) return '';
  return createTwoFilesPatch('', '', before, after, undefined, undefined, {
    context: CONTEXT_LINES,
    headerOptions: OMIT_HEADERS,
  });
}

/**
 * One file's section of a git-style diff; null content means the file does not exist on that
 * side. `path` is shown as given (relative to the repository or the working directory).
 */
export function gitFileDiff(path: string, before: string | null, after: string | null): string {
  if (before === after) return '';
  const head = [`diff --git a/${path} b/${path}`];
  if (before === null) head.push('new file mode 100644');
  if (after === null) head.push('deleted file mode 100644');
  head.push(before === null ? '--- /dev/null' : `--- a/${path}`);
  head.push(after === null ? '+++ /dev/null' : `+++ b/${path}`);
  return `${head.join('\n')}\n${unifiedHunks(before ?? '', after ?? '')}`;
}
