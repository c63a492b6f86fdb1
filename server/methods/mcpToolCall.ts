// mcpServer/tool/call: a client calls one tool of an MCP server directly, for a thread. The same
// rules hold as for the agent's calls (server/tools/mcpTools.ts): the user's servers, installed
// plugins' and only those project servers the user has trusted (a direct call never asks to trust
// one); the apps' configuration may leave the tool out; and a call the approval rule says must be
// asked about is refused, since outside a turn there is nobody to ask: it fails closed.
import { appToolPolicy } from '../apps/appToolPolicy';
import type { McpConnection } from '../mcp/connection';
import { pluginServers } from '../mcp/pluginServers';
import { projectServers } from '../mcp/projectServers';
import type { Handler } from '../rpc/dispatcher';
import { ErrorCodes, RpcError, invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { hintsOf, needsApproval } from '../tools/mcpTools';
import { settingsFor } from './threadSettings';

/** The thread's server of that name, or why there is none it may call. */
async function serverFor(services: Services, cwd: string, name: string): Promise<McpConnection> {
  const own = await services.mcp.get(name);
  if (own) return own;
  const plugins = pluginServers(await services.plugins.installed(), services.log);
  const trusted = await services.mcp.forProject(cwd, null, plugins);
  const found = trusted.find((c) => c.config.name === name);
  if (found) return found;
  const defined = [...plugins, ...(await projectServers(cwd, services.log))].find(
    (s) => s.config.name === name,
  );
  if (defined)
    throw invalidRequest(
      `the MCP server "${name}" of ${defined.file} is not trusted (or is disabled): ` +
        'a turn in this thread asks to trust it first; a direct call never does',
    );
  const known = [...(await services.mcp.list()), ...trusted].map((c) => c.config.name);
  throw invalidParams(
    `Invalid params: server: no MCP server named "${name}"; configured: ${known.join(', ') || 'none'}`,
  );
}

export function mcpToolCallHandler(services: Services): Handler<'mcpServer/tool/call'> {
  return async (params) => {
    const args = params.arguments ?? {};
    if (typeof args !== 'object' || Array.isArray(args))
      throw invalidParams("Invalid params: arguments: must be an object (the tool's input)");
    const store = await services.store();
    const settings = await settingsFor(services, store.require(params.threadId));
    const connection = await serverFor(services, settings.cwd, params.server);
    await connection.ensureStarted();
    if (connection.status !== 'connected')
      throw invalidRequest(
        `the MCP server "${params.server}" is not running (${connection.status}${connection.error ? `: ${connection.error}` : ''})`,
      );
    const tool = connection.tools.find((t) => t.name === params.tool);
    if (!tool)
      throw invalidParams(
        `Invalid params: tool: "${params.server}" has no tool "${params.tool}"; it has: ${connection.tools.map((t) => t.name).join(', ') || 'none'}`,
      );
    const hints = hintsOf(tool);
    const { apps, defaults } = await services.apps.definitions();
    const policy = appToolPolicy(apps, defaults)(params.server, tool.name, hints);
    if (!policy.offered)
      throw invalidRequest(
        `the apps configuration leaves out ${tool.name} of "${params.server}": it is not called`,
      );
    if (needsApproval(policy.approval, hints, settings.approvalPolicy))
      throw invalidRequest(
        `${tool.name} of "${params.server}" needs the user's approval (approval mode "${policy.approval}"` +
          `${hints.destructive ? ', it may change or delete data' : ''}), which a direct call cannot ask for: ` +
          'it did not run; the agent can call it in a turn, or the tool can be approved in config.toml',
      );
    try {
      const result = await connection.callTool(tool.name, args as Record<string, unknown>, {
        signal: new AbortController().signal,
        onProgress: () => {},
      });
      return {
        content: Array.isArray(result.content) ? result.content : [],
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
        isError: result.isError === true,
        ...(result._meta !== undefined ? { _meta: result._meta } : {}),
      };
    } catch (error) {
      throw new RpcError(
        ErrorCodes.internalError,
        `${tool.name} of "${params.server}" failed: ${(error as Error).message}`,
      );
    }
  };
}
