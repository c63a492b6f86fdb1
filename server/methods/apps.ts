// app/list: the apps of config.toml and installed plugins, paged by cursor.
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';

const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;

export function appHandlers(services: Services): HandlerTable {
  return {
    'app/list': async (params: ParamsOf<'app/list'>): Promise<ResultOf<'app/list'>> => {
      const apps = (await services.apps.list()).map((app) => app.info);
      const start = params.cursor ? offsetOf(params.cursor) : 0;
      const limit = Math.min(Math.max(params.limit ?? DEFAULT_PAGE, 1), MAX_PAGE);
      const end = start + limit;
      return { data: apps.slice(start, end), nextCursor: end < apps.length ? `apps:${end}` : null };
    },
  };
}

function offsetOf(cursor: string): number {
  const match = /^apps:(\d{1,9})$/.exec(cursor);
  if (!match) {
    throw invalidParams(
      `Invalid params: cursor: '${cursor.slice(0, 60)}' is not a cursor this server issued`,
    );
  }
  return Number(match[1]);
}
