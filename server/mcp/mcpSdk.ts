// The official MCP SDK's client side, bundled apart (dist/server-mcp.js): loaded when the first MCP
// server starts, so a config without MCP servers never pays for it.
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
export { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
