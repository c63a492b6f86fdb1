// Which item types this build knows: readers narrow an item to the protocol's ThreadItem by its type,
// and treat any other type as an item of a newer protocol (shown on a generic card).
import { ThreadItem } from './items';

export const threadItemTypes: ReadonlySet<string> = new Set(
  ThreadItem.anyOf.map((item) => item.properties.type.const),
);

/** Whether the item is one of the protocol's ThreadItems (its type is known; its fields are the type's). */
export function isThreadItem(item: { type: string }): item is ThreadItem {
  return threadItemTypes.has(item.type);
}
