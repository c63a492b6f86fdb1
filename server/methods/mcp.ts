// MCP servers: their status with tools and resources, reading a resource, reloading the config,
// and OAuth sign-in for HTTP servers that need it.
import type { McpConnection } from '../mcp/connection';
import { pluginServers } from '../mcp/pluginServers';
import type { McpServerStatus } from '../protocol/mcp';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { announceApps } from './apps';
import { mcpToolCallHandler } from './mcpToolCall';

const DEFAULT_PAGE = 100;
const DEFAULT_LOGIN_TIMEOUT_SECS = 300;

export function mcpHandlers(services: Services): HandlerTable {
  const { mcp } = services;

  const named = async (name: string): Promise<McpConnection> => {
    const connection = await mcp.get(name);
    if (!connection) {
      const known = (await mcp.list()).map((c) => c.config.name);
      throw invalidParams(`no MCP server named "${name}"; configured: ${known.join(', ') || 'none'}`);
    }
    return connection;
  };

  /**
   * The user's servers, the installed plugins' and those the thread's project defines that the user
   * has trusted (the ones its turns use); a status list never asks to trust one.
   */
  const listed = async (threadId: string | null | undefined): Promise<McpConnection[]> => {
    const plugins = pluginServers(await services.plugins.installed(), services.log);
    if (!threadId) return [...(await mcp.list()), ...(await mcp.forDefined(plugins, null))];
    const thread = services.loaded.get(threadId);
    if (!thread?.settings)
      throw invalidParams(`thread ${threadId} is not loaded: resume it to list its project's MCP servers`);
    return [...(await mcp.list()), ...(await mcp.forProject(thread.settings.cwd, null, plugins))];
  };

  return {
    'mcpServer/tool/call': mcpToolCallHandler(services),

    'mcpServerStatus/list': async (params) => {
      const all = params.serverName ? [await named(params.serverName)] : await listed(params.threadId);
      const start = params.cursor ? Number(params.cursor) : 0;
      if (!Number.isInteger(start) || start < 0 || start > all.length)
        throw invalidParams(`cursor ${JSON.stringify(params.cursor)} is not one this server gave out`);
      const limit = params.limit || DEFAULT_PAGE;
      const page = all.slice(start, start + limit);
      // Only the servers on this page start (each within its startup timeout).
      await Promise.all(page.map((c) => c.ensureStarted()));
      const full = (params.detail ?? 'full') === 'full';
      const data = await Promise.all(page.map((c) => statusOf(c, full, mcp.authStatus(c))));
      const next = start + page.length;
      return { data, nextCursor: next < all.length ? String(next) : null };
    },

    'mcpServer/resource/read': async (params) => {
      const connection = await named(params.server);
      try {
        const { contents } = await connection.readResource(params.uri);
        return {
          contents: contents.map((c) =>
            'text' in c && typeof c.text === 'string'
              ? { uri: c.uri, mimeType: c.mimeType ?? null, text: c.text }
              : {
                  uri: c.uri,
                  mimeType: c.mimeType ?? null,
                  blob: String((c as { blob?: unknown }).blob ?? ''),
                },
          ),
        };
      } catch (error) {
        throw invalidRequest(`cannot read ${params.uri} from ${params.server}: ${(error as Error).message}`);
      }
    },

    // A reload follows an edit of config.toml by hand, which may have changed the apps too.
    'config/mcpServer/reload': async (_params, { peer }) => {
      await mcp.reload();
      announceApps(services, peer);
      return {};
    },

    'mcpServer/oauth/login': async (params, { peer }) => {
      const { config } = await named(params.name);
      const { transport } = config;
      if (transport.type !== 'http')
        throw invalidParams(
          `${params.name} is a stdio server; only streamable HTTP servers sign in with OAuth`,
        );
      if (transport.bearerTokenEnvVar)
        throw invalidParams(
          `${params.name} uses a bearer token from ${transport.bearerTokenEnvVar}, not OAuth`,
        );
      try {
        return await mcp.auth.login({
          name: params.name,
          url: transport.url,
          scopes: params.scopes ?? null,
          timeoutMs: (params.timeoutSecs ?? DEFAULT_LOGIN_TIMEOUT_SECS) * 1000,
          onDone: ({ loginId, success, error }) => {
            const restarted = success ? mcp.restart(params.name) : Promise.resolve();
            void restarted.finally(() =>
              peer.notify('mcpServer/oauthLogin/completed', { name: params.name, success, error, loginId }),
            );
          },
        });
      } catch (error) {
        throw invalidRequest((error as Error).message);
      }
    },
  };
}

async function statusOf(
  connection: McpConnection,
  full: boolean,
  authStatus: Promise<McpServerStatus['authStatus']>,
): Promise<McpServerStatus> {
  const { transport, name } = connection.config;
  const failed = connection.status !== 'connected' && connection.status !== 'disabled';
  return {
    name,
    authStatus: await authStatus,
    tools: Object.fromEntries(connection.tools.map((tool) => [tool.name, tool])),
    resources: full ? connection.resources : [],
    resourceTemplates: full ? connection.resourceTemplates : [],
    runtimeStatus: connection.status,
    toolsError: failed ? (connection.error ?? connection.status) : null,
    httpOrigin: transport.type === 'http' ? new URL(transport.url).origin : null,
    serverInfo: connection.serverInfo,
  };
}
