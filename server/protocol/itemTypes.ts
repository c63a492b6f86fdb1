// Which item types this build knows: readers narrow an item to the protocol's ThreadItem by its type,
// and treat any other type as an item of a newer protocol (shown on a generic card). A plain list, not
// read from the ThreadItem schema, so the webview narrows items without loading the schema library;
// the compiler holds it to the union both ways.
import type { ThreadItem } from './items';

const ITEM_TYPES = [
  'userMessage',
  'agentMessage',
  'reasoning',
  'plan',
  'contextCompaction',
  'commandExecution',
  'fileChange',
  'imageView',
  'dynamicToolCall',
  'mcpToolCall',
  'enteredReviewMode',
  'exitedReviewMode',
] as const satisfies readonly ThreadItem['type'][];

/** Names an item type of the ThreadItem union that ITEM_TYPES leaves out (a compile error). */
type Unlisted = Exclude<ThreadItem['type'], (typeof ITEM_TYPES)[number]>;
const everyTypeListed: [Unlisted] extends [never] ? true : Unlisted = true;

export const threadItemTypes: ReadonlySet<string> = everyTypeListed && new Set(ITEM_TYPES);

/** Whether the item is one of the protocol's ThreadItems (its type is known; its fields are the type's). */
export function isThreadItem(item: { type: string }): item is ThreadItem {
  return threadItemTypes.has(item.type);
}
