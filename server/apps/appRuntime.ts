// What app/read and app/installed say of an app's tools: the MCP server that carries them, whether it
// is running, and which of its tools the app lets the model use (appToolPolicy). Servers start only
// when the client asks (`start`): config.toml's then run, and a plugin's too once the user trusted
// it (a plugin's server never starts without that yes). Without `start`, only config.toml's servers
// are looked at, as they are.
import type { McpConnection } from '../mcp/connection';
import { pluginServers } from '../mcp/pluginServers';
import type { Services } from '../services';
import { hintsOf } from '../tools/mcpTools';
import { appToolPolicy, type ToolPolicyOf } from './appToolPolicy';

export interface AppRuntime {
  connections: Map<string, McpConnection>;
  policyOf: ToolPolicyOf;
}

export async function appRuntime(services: Services, start: boolean): Promise<AppRuntime> {
  const { apps, defaults } = await services.apps.definitions();
  const configured = await services.mcp.list();
  if (start) await Promise.all(configured.map((connection) => connection.ensureStarted()));
  const fromPlugins = start
    ? await services.mcp.forDefined(pluginServers(await services.plugins.installed(), services.log), null)
    : [];
  const connections = new Map<string, McpConnection>();
  for (const connection of [...configured, ...fromPlugins]) {
    if (!connections.has(connection.config.name)) connections.set(connection.config.name, connection);
  }
  return { connections, policyOf: appToolPolicy(apps, defaults) };
}

/** The tools of the app's server as the app offers them; null when the server is not running. */
export function appTools(runtime: AppRuntime | null, server: string | null) {
  const connection = runtime && server !== null ? runtime.connections.get(server) : undefined;
  if (!connection || connection.status !== 'connected') return null;
  return connection.tools.map((tool) => {
    const hints = hintsOf(tool);
    return { tool, hints, offered: runtime!.policyOf(server!, tool.name, hints).offered };
  });
}
