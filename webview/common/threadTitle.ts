// How a thread is called wherever it is shown (the tree, the pickers, the view's header, a panel's tab):
// its name, else its first prompt (the preview), on one line and trimmed.
import type { ThreadItem } from '../../server/protocol/items';
import type { ServerNotification } from '../../server/protocol/notificationRoutes';
import type { Thread } from '../../server/protocol/thread';

export type TitleParts = Pick<Thread, 'name' | 'preview'>;

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

/** The text a user message starts with, which a thread's preview is made of. */
export function promptText(item: ThreadItem): string | undefined {
  if (item.type !== 'userMessage') return undefined;
  const text = item.content.find((c) => c.type === 'text');
  return text && 'text' in text ? text.text : undefined;
}

/**
 * The title parts after a notification: a rename, or the first prompt of a thread whose preview is
 * still empty (neither server says when a preview changes; a thread's first prompt is its preview).
 * The same object when nothing changed.
 */
export function retitled<T extends TitleParts>(thread: T, notification: ServerNotification): T {
  if (notification.method === 'thread/name/updated')
    return { ...thread, name: notification.params.threadName };
  if (notification.method !== 'item/started' || thread.preview) return thread;
  const preview = promptText(notification.params.item);
  return preview ? { ...thread, preview } : thread;
}
