// How a thread is called wherever it is shown (the tree, the pickers, the view's header, a panel's tab):
// its name, else its first prompt (the preview), on one line and trimmed.
import type { Thread } from '../../server/protocol/thread';

/** Titles longer than this end in an ellipsis. */
export const maxTitleLength = 80;

/**
 * `fallback` stands in for an empty preview: a thread just started has none until it is read again,
 * but its view already knows the first prompt.
 */
export function threadTitle(thread: Pick<Thread, 'name' | 'preview'>, fallback = ''): string {
  const text = (thread.name?.trim() || thread.preview.trim() || fallback.trim() || 'New thread').replace(
    /\s+/g,
    ' ',
  );
  return text.length > maxTitleLength ? `${text.slice(0, maxTitleLength - 1)}…` : text;
}
