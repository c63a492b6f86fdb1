// app/list: the apps of config.toml and installed plugins, paged by cursor; and app/list/updated
// after a request that changed them.
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
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

const listed = async (services: Services) =>
  (await services.apps.list().catch(() => [])).map((app) => app.info);

/** Tells the client the apps as they are now (app/list/updated), after the answer it waits for. */
export function announceApps(services: Services, peer: RequestContext['peer']): void {
  setImmediate(async () => peer.notify('app/list/updated', { data: await listed(services) }));
}

/** Runs a change of the config and, once it is done, announces the apps if it changed them. */
export async function announcingApps<T>(
  services: Services,
  peer: RequestContext['peer'],
  change: () => Promise<T>,
): Promise<T> {
  const before = JSON.stringify(await listed(services));
  const result = await change();
  const after = await listed(services);
  if (JSON.stringify(after) !== before) setImmediate(() => peer.notify('app/list/updated', { data: after }));
  return result;
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
