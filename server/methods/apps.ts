// app/list: the apps of config.toml and installed plugins, paged by cursor; app/read: some of them
// by id, with their tools on request; app/installed: each app's runtime state; and app/list/updated
// after a request that changed them. All are local: an app is a name over an MCP server.
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';
import { appRuntime, appTools } from '../apps/appRuntime';

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

    'app/read': async (params: ParamsOf<'app/read'>): Promise<ResultOf<'app/read'>> => {
      const ids = [...new Set(params.appIds)];
      const byId = new Map((await services.apps.list()).map((app) => [app.info.id, app]));
      const runtime = params.includeTools ? await appRuntime(services, true) : null;
      const found = ids.flatMap((id) => byId.get(id) ?? []);
      return {
        apps: found.map(({ info, mcpServer }) => ({
          id: info.id,
          name: info.name,
          description: info.description,
          distributionChannel: null,
          iconUrl: null,
          iconUrlDark: null,
          installUrl: null,
          pluginDisplayNames: info.pluginDisplayNames,
          // Null when not asked for, or when the app's server is not running to say.
          toolSummaries:
            appTools(runtime, mcpServer)?.map(({ tool, hints, offered }) => ({
              name: tool.name,
              title: tool.title ?? null,
              description: tool.description ?? '',
              isEnabled: info.isEnabled && offered,
              isReadOnly: hints.readOnly,
              disabledReason: !info.isEnabled
                ? 'the app is turned off in config.toml'
                : offered
                  ? null
                  : "the app's config does not offer this tool to the model",
            })) ?? null,
        })),
        missingAppIds: ids.filter((id) => !byId.has(id)),
      };
    },

    'app/installed': async (params: ParamsOf<'app/installed'>): Promise<ResultOf<'app/installed'>> => {
      const runtime = await appRuntime(services, params.forceRefresh === true);
      return {
        apps: (await services.apps.list()).map(({ info, mcpServer }) => ({
          id: info.id,
          enabled: info.isEnabled,
          callable: info.isEnabled && (appTools(runtime, mcpServer)?.some((t) => t.offered) ?? false),
          runtimeName: mcpServer,
        })),
      };
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
