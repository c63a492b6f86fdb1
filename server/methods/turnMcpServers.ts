// The MCP tools of one turn: the servers of config.toml, and the trusted ones of the thread's project
// and of installed plugins,
// each up or failed within its startup timeout, less the tools the apps naming a server leave out. A failed one offers no tools, and the thread hears
// why (mcpServer/startupStatus/updated) on every turn until it works again.
import type { ActiveTurn } from '../agent/activeTurn';
import type { ApprovalGate } from '../agent/approvalGate';
import type { AgentTool } from '../agent/tool';
import type { ThreadSettings } from '../config/settings';
import { appToolPolicy } from '../apps/appToolPolicy';
import { pluginServers } from '../mcp/pluginServers';
import { askToTrust } from '../mcp/trustPrompt';
import type { Services } from '../services';
import { mcpTools } from '../tools/mcpTools';

export async function mcpToolsForTurn(
  services: Services,
  active: ActiveTurn,
  settings: ThreadSettings,
  gate: ApprovalGate,
): Promise<AgentTool[]> {
  // Nobody can be asked under `never`: a project's servers then start only if trusted before.
  const approve =
    settings.approvalPolicy === 'never'
      ? null
      : (server: Parameters<typeof askToTrust>[2], code: Parameters<typeof askToTrust>[3]) =>
          askToTrust(gate, { threadId: active.threadId, turnId: active.turnId }, server, code);
  const connections = [
    ...(await services.mcp.started()),
    ...(await services.mcp.forProject(
      settings.cwd,
      approve,
      pluginServers(await services.plugins.installed(), services.log),
    )),
  ];
  for (const { config, status, error } of connections) {
    if (status !== 'failed' && status !== 'authenticationRequired') continue;
    active.emit.threadEvent('mcpServer/startupStatus/updated', {
      name: config.name,
      status: 'failed',
      error,
      threadId: active.threadId,
    });
  }
  const { apps, defaults } = await services.apps.definitions();
  return mcpTools(connections, appToolPolicy(apps, defaults));
}
