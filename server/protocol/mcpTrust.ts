// The item/tool/requestUserInput question that asks whether to trust an MCP server a project's own
// files define, and its two answers. Plain constants (no schema library), so the extension can
// recognise the question without bundling the protocol's schemas.
export const PROJECT_SERVER_TRUST_QUESTION = 'mcp_project_server_trust';
export const TRUST_ANSWER = 'Trust and start';
export const DISTRUST_ANSWER = 'Not now';
