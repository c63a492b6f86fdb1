// MCP servers: the mcpToolCall item, the status list, resource reads, reload and OAuth sign-in.
// Shapes follow the reference schema field for field; MCP's own objects (tools, resources,
// results) pass through as the MCP server sent them.
import { Type, type Static } from '@sinclair/typebox';
import { Opt, Params, Shape, StringEnum } from './schema';

export const McpToolCallStatus = StringEnum(['inProgress', 'completed', 'failed']);

export const McpToolCallResult = Type.Object({
  content: Type.Array(Type.Unknown()),
  structuredContent: Type.Optional(Type.Unknown()),
  _meta: Type.Optional(Type.Unknown()),
});
export type McpToolCallResult = Static<typeof McpToolCallResult>;

export const McpToolCallItem = Type.Object({
  type: Type.Literal('mcpToolCall'),
  id: Type.String(),
  server: Type.String(),
  tool: Type.String(),
  status: McpToolCallStatus,
  arguments: Type.Unknown(),
  result: Opt(McpToolCallResult),
  error: Opt(Type.Object({ message: Type.String() })),
  durationMs: Opt(Type.Integer()),
  readOnlyHint: Opt(Type.Boolean()),
});
export type McpToolCallItem = Static<typeof McpToolCallItem>;

export const McpAuthStatus = StringEnum(['unknown', 'unsupported', 'notLoggedIn', 'bearerToken', 'oAuth']);
export type McpAuthStatus = Static<typeof McpAuthStatus>;
export const McpServerConnectionStatus = StringEnum([
  'notStarted',
  'starting',
  'connected',
  'authenticationRequired',
  'failed',
  'cancelled',
  'disabled',
]);
export type McpServerConnectionStatus = Static<typeof McpServerConnectionStatus>;

const McpTool = Type.Object(
  {
    name: Type.String(),
    title: Opt(Type.String()),
    description: Opt(Type.String()),
    inputSchema: Type.Unknown(),
    outputSchema: Type.Optional(Type.Unknown()),
    annotations: Type.Optional(Type.Unknown()),
    icons: Opt(Type.Array(Type.Unknown())),
    _meta: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);
export type McpTool = Static<typeof McpTool>;

const McpResource = Type.Object(
  {
    uri: Type.String(),
    name: Type.String(),
    title: Opt(Type.String()),
    description: Opt(Type.String()),
    mimeType: Opt(Type.String()),
    size: Opt(Type.Integer()),
  },
  { additionalProperties: true },
);
export type McpResource = Static<typeof McpResource>;

const McpResourceTemplate = Type.Object(
  {
    uriTemplate: Type.String(),
    name: Type.String(),
    title: Opt(Type.String()),
    description: Opt(Type.String()),
    mimeType: Opt(Type.String()),
  },
  { additionalProperties: true },
);
export type McpResourceTemplate = Static<typeof McpResourceTemplate>;

export const McpServerStatus = Shape({
  name: Type.String(),
  authStatus: McpAuthStatus,
  tools: Type.Record(Type.String(), McpTool),
  resources: Type.Array(McpResource),
  resourceTemplates: Type.Array(McpResourceTemplate),
  runtimeStatus: Opt(McpServerConnectionStatus),
  toolsError: Opt(Type.String()),
  httpOrigin: Opt(Type.String()),
  serverInfo: Opt(Type.Object({ name: Type.String(), version: Type.String(), title: Opt(Type.String()) })),
});
export type McpServerStatus = Static<typeof McpServerStatus>;

export const ListMcpServerStatusParams = Params({
  cursor: Opt(Type.String()),
  limit: Opt(Type.Integer({ minimum: 0 })),
  detail: Opt(StringEnum(['full', 'toolsAndAuthOnly'])),
  serverName: Opt(Type.String()),
  threadId: Opt(Type.String()),
});
export const ListMcpServerStatusResponse = Shape({
  data: Type.Array(McpServerStatus),
  nextCursor: Opt(Type.String()),
});

export const McpResourceReadParams = Params({
  server: Type.String(),
  uri: Type.String(),
  threadId: Opt(Type.String()),
});
const ResourceContent = Type.Union([
  Type.Object({ uri: Type.String(), mimeType: Opt(Type.String()), text: Type.String() }),
  Type.Object({ uri: Type.String(), mimeType: Opt(Type.String()), blob: Type.String() }),
]);
export const McpResourceReadResponse = Shape({ contents: Type.Array(ResourceContent) });

export const McpServerRefreshParams = Params({});
export const McpServerRefreshResponse = Shape({});

export const McpServerOauthLoginParams = Params({
  name: Type.String(),
  scopes: Opt(Type.Array(Type.String())),
  timeoutSecs: Opt(Type.Integer({ minimum: 1 })),
  threadId: Opt(Type.String()),
});
export const McpServerOauthLoginResponse = Shape({
  authorizationUrl: Type.String(),
  loginId: Opt(Type.String()),
});

export const mcpNotifications = {
  'item/mcpToolCall/progress': Shape({
    threadId: Type.String(),
    turnId: Type.String(),
    itemId: Type.String(),
    message: Type.String(),
  }),
  'mcpServer/oauthLogin/completed': Shape({
    name: Type.String(),
    success: Type.Boolean(),
    error: Opt(Type.String()),
    loginId: Opt(Type.String()),
  }),
  'mcpServer/startupStatus/updated': Shape({
    name: Type.String(),
    status: StringEnum(['starting', 'ready', 'failed', 'cancelled']),
    error: Opt(Type.String()),
    threadId: Opt(Type.String()),
  }),
} as const;
