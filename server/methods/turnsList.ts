// thread/turns/list: pages through a thread's turns so a client never has to load a huge thread
// whole. Cursors name the last turn returned, so appending turns never shifts a page.
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { Handler } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';
import { settleOrphanedTurns, viewTurn } from './threadView';

const DEFAULT_TURNS = 20;
const MAX_TURNS = 200;

interface TurnCursor {
  turnId: string;
  /** Whether the page starts at this turn (a resume's backwards cursor) or just after it. */
  inclusive: boolean;
}

export const encodeTurnCursor = (turnId: string, inclusive = false) =>
  Buffer.from(JSON.stringify(inclusive ? { t: turnId, i: 1 } : { t: turnId })).toString('base64url');

function decode(cursor: string): TurnCursor {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      t?: unknown;
      i?: unknown;
    };
    if (typeof value.t === 'string') return { turnId: value.t, inclusive: value.i === 1 };
  } catch {
    // reported below
  }
  throw invalidParams(`Invalid params: cursor: '${cursor.slice(0, 60)}' is not a cursor this server issued`);
}

export function turnsListHandler(services: Services): Handler<'thread/turns/list'> {
  return async (params: ParamsOf<'thread/turns/list'>): Promise<ResultOf<'thread/turns/list'>> => {
    const store = await services.store();
    store.require(params.threadId);
    const running = services.loaded.statusOf(params.threadId).type === 'active';
    const turns = settleOrphanedTurns((await store.history(params.threadId)).turns, running);
    const ordered = params.sortDirection === 'asc' ? turns : [...turns].reverse();
    let start = 0;
    if (params.cursor) {
      const { turnId, inclusive } = decode(params.cursor);
      const at = ordered.findIndex((t) => t.id === turnId);
      if (at < 0) throw invalidParams(`Invalid params: cursor: turn ${turnId} is no longer in this thread`);
      start = inclusive ? at : at + 1;
    }
    const limit = Math.min(params.limit || DEFAULT_TURNS, MAX_TURNS);
    const page = ordered.slice(start, start + limit);
    const last = page[page.length - 1];
    const first = page[0];
    return {
      data: page.map((turn) => viewTurn(turn, params.itemsView ?? 'summary')),
      nextCursor: last && start + limit < ordered.length ? encodeTurnCursor(last.id) : null,
      backwardsCursor: first && start > 0 ? encodeTurnCursor(first.id) : null,
    };
  };
}
