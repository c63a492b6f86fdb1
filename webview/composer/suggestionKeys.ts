// The keys every suggestion list under the composer answers (`@` files, `$` skills): arrows move the
// highlight around the list, Enter or Tab takes the highlighted one, Escape closes. Returns whether the
// key was the list's, so the composer does not also act on it.
import type { KeyboardEvent } from 'react';

export function suggestionKey(
  event: KeyboardEvent<HTMLTextAreaElement>,
  count: number,
  list: { move(step: 1 | -1): void; take(): void; close(): void },
): boolean {
  if (count === 0) return false;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') list.move(event.key === 'ArrowDown' ? 1 : -1);
  else if (event.key === 'Enter' || event.key === 'Tab') list.take();
  else if (event.key === 'Escape') list.close();
  else return false;
  event.preventDefault();
  return true;
}

/** The next highlighted index, wrapping at both ends. */
export const wrapIndex = (index: number, step: number, count: number) => (index + step + count) % count;
