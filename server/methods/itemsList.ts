// thread/items/list: a thread's items one page at a time, across the thread or within one turn,
// so a client can load a long thread without its whole history. A cursor names the last item
// returned (turn and item id), so turns appended later never shift a page.
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { ThreadItem } from '../protocol/items';
import type { Handler } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';
import { settleOrphanedTurns } from './threadView';

const DEFAULT_ITEMS = 50;
const MAX_ITEMS = 500;

interface Position {
  turnId: string;
  itemId: string;
}
interface Entry extends Position {
  item: ThreadItem;
}

const encode = ({ turnId, itemId }: Position) =>
  Buffer.from(JSON.stringify({ t: turnId, it: itemId })).toString('base64url');

function decode(cursor: string): Position {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      t?: unknown;
      it?: unknown;
    };
    if (typeof value.t === 'string' && typeof value.it === 'string')
      return { turnId: value.t, itemId: value.it };
  } catch {
    // reported below
  }
  throw invalidParams(`Invalid params: cursor: '${cursor.slice(0, 60)}' is not a cursor this server issued`);
}

/** Where the page starts after: a cursor we issued, or an item anchor inside the requested turn. */
function anchorOf(params: ParamsOf<'thread/items/list'>): Position | null {
  const { cursor } = params;
  if (cursor == null) return null;
  if (typeof cursor === 'string') return decode(cursor);
  if (!params.turnId) throw invalidParams('Invalid params: cursor: an item anchor needs a non-empty turnId');
  return { turnId: params.turnId, itemId: cursor.itemId };
}

export function itemsListHandler(services: Services): Handler<'thread/items/list'> {
  return async (params): Promise<ResultOf<'thread/items/list'>> => {
    const store = await services.store();
    store.require(params.threadId);
    const running = services.loaded.statusOf(params.threadId).type === 'active';
    let turns = settleOrphanedTurns((await store.history(params.threadId)).turns, running);
    if (params.turnId) {
      turns = turns.filter((turn) => turn.id === params.turnId);
      if (!turns.length)
        throw invalidParams(`Invalid params: turnId: thread ${params.threadId} has no turn ${params.turnId}`);
    }
    const entries: Entry[] = turns.flatMap((turn) =>
      turn.items.map((item) => ({ turnId: turn.id, itemId: item.id, item })),
    );
    const ordered = params.sortDirection === 'desc' ? entries.reverse() : entries;
    let start = 0;
    const anchor = anchorOf(params);
    if (anchor) {
      const at = ordered.findIndex((e) => e.turnId === anchor.turnId && e.itemId === anchor.itemId);
      if (at < 0)
        throw invalidParams(
          `Invalid params: cursor: item ${anchor.itemId} is no longer in turn ${anchor.turnId}`,
        );
      start = at + 1;
    }
    const limit = Math.min(params.limit || DEFAULT_ITEMS, MAX_ITEMS);
    const page = ordered.slice(start, start + limit);
    const last = page[page.length - 1];
    const first = page[0];
    return {
      data: page.map(({ item, turnId }) => ({ item, turnId, startedAtMs: null, completedAtMs: null })),
      nextCursor: last && start + limit < ordered.length ? encode(last) : null,
      backwardsCursor: first ? encode(first) : null,
    };
  };
}
