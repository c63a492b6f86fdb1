// What the MCP Servers view shows, as plain data: one node per configured server (its state in
// words, why it failed), and under it its tools, or its error and the way out (sign in, show the
// log). Pure, so it is tested without an editor.
import type { McpServerStatus } from '../../server/protocol/mcp';

export type ServerLook = 'connected' | 'failed' | 'signIn' | 'disabled' | 'starting';

export interface ServerNode {
  kind: 'server';
  name: string;
  look: ServerLook;
  /** Short text beside the name: "3 tools", "failed", "sign in required". */
  description: string;
  /** The whole story for the hover: state, endpoint, error. */
  tooltip: string;
  status: McpServerStatus;
}

export interface ToolNode {
  kind: 'tool';
  server: string;
  name: string;
  description: string;
  /** The tool says it may change or delete data (the call asks first). */
  destructive: boolean;
}

export interface MessageNode {
  kind: 'message';
  server: string;
  text: string;
  /** A command the node runs when clicked (sign in, show the log). */
  action: 'signIn' | 'showLog' | null;
}

export type McpNode = ServerNode | ToolNode | MessageNode;

export function serverNode(status: McpServerStatus): ServerNode {
  const look = lookOf(status);
  const toolCount = Object.keys(status.tools).length;
  const description = {
    connected: `${toolCount} tool${toolCount === 1 ? '' : 's'}`,
    failed: 'failed',
    signIn: 'sign in required',
    disabled: 'disabled',
    starting: 'starting…',
  }[look];
  const lines = [
    `${status.name}: ${description}`,
    status.serverInfo
      ? `${status.serverInfo.title ?? status.serverInfo.name} ${status.serverInfo.version}`
      : '',
    status.httpOrigin ?? '',
    status.toolsError ?? '',
  ];
  return {
    kind: 'server',
    name: status.name,
    look,
    description,
    tooltip: lines.filter(Boolean).join('\n'),
    status,
  };
}

export function childrenOf(node: ServerNode): (ToolNode | MessageNode)[] {
  const { status } = node;
  const server = status.name;
  if (node.look === 'signIn') {
    return [{ kind: 'message', server, text: 'Sign in to use its tools', action: 'signIn' }];
  }
  if (node.look === 'failed') {
    return [
      { kind: 'message', server, text: status.toolsError ?? 'failed to start', action: null },
      { kind: 'message', server, text: 'Show the log (the server’s stderr is there)', action: 'showLog' },
    ];
  }
  if (node.look === 'disabled') {
    return [{ kind: 'message', server, text: 'enabled = false in config.toml', action: null }];
  }
  const tools = Object.values(status.tools).map((tool): ToolNode => ({
    kind: 'tool',
    server,
    name: tool.name,
    description: tool.title ?? tool.description ?? '',
    destructive: (tool.annotations as { destructiveHint?: unknown } | undefined)?.destructiveHint === true,
  }));
  return tools.length ? tools : [{ kind: 'message', server, text: 'offers no tools', action: null }];
}

function lookOf(status: McpServerStatus): ServerLook {
  switch (status.runtimeStatus) {
    case 'connected':
      return 'connected';
    case 'disabled':
      return 'disabled';
    case 'authenticationRequired':
      return 'signIn';
    case 'starting':
    case 'notStarted':
      return 'starting';
    case 'failed':
    case 'cancelled':
      return 'failed';
    default:
      // A server that does not report the runtime state (the reference one, say): judge by the rest.
      if (status.authStatus === 'notLoggedIn') return 'signIn';
      return status.toolsError ? 'failed' : 'connected';
  }
}
