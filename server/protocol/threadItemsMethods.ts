// thread/items/list (a thread's items, paged) and thread/inject_items (raw Responses API items
// appended to the model's history), as the reference schema (Codex 0.169) defines them.
import { Type } from '@sinclair/typebox';
import { SortDirection } from './enums';
import { ThreadItem } from './items';
import { Nullable, Opt, Params, Shape } from './schema';

const ThreadId = { threadId: Type.String({ minLength: 1 }) };

/** An exclusive position inside the requested turn: items after it (ascending) or before it. */
export const ThreadItemsListAnchor = Type.Object({ type: Type.Literal('item'), itemId: Type.String() });

export const ThreadItemsListParams = Params({
  ...ThreadId,
  turnId: Opt(Type.String()),
  cursor: Opt(Type.Union([Type.String(), ThreadItemsListAnchor])),
  limit: Opt(Type.Integer({ minimum: 0 })),
  sortDirection: Opt(SortDirection),
  deferOutput: Opt(Type.Object({})),
});

export const ThreadItemEntry = Type.Object({
  item: ThreadItem,
  turnId: Type.String(),
  startedAtMs: Opt(Type.Integer()),
  completedAtMs: Opt(Type.Integer()),
});

export const ThreadItemsListResponse = Shape({
  data: Type.Array(ThreadItemEntry),
  nextCursor: Nullable(Type.String()),
  backwardsCursor: Nullable(Type.String()),
});

export const ThreadInjectItemsParams = Params({ ...ThreadId, items: Type.Array(Type.Unknown()) });
export const ThreadInjectItemsResponse = Shape({});
