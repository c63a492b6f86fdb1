// mcpServer/tool/call: a client calls a tool of a configured MCP server directly, as the reference
// schema (Codex 0.169) defines it; MCP's own result objects pass through as the server sent them.
import { Type } from '@sinclair/typebox';
import { Nullable, Params, Shape } from './schema';

export const McpServerToolCallParams = Params({
  threadId: Type.String({ minLength: 1 }),
  server: Type.String({ minLength: 1 }),
  tool: Type.String({ minLength: 1 }),
  arguments: Type.Optional(Type.Unknown()),
  _meta: Type.Optional(Type.Unknown()),
});

export const McpServerToolCallResponse = Shape({
  content: Type.Array(Type.Unknown()),
  structuredContent: Type.Optional(Type.Unknown()),
  isError: Type.Optional(Nullable(Type.Boolean())),
  _meta: Type.Optional(Type.Unknown()),
});
