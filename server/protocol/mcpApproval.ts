// The item/tool/requestUserInput question that asks before an MCP tool runs, and its answers. Plain
// constants (no schema library), so the webview can show the question as an approval card with the
// same answers as a command's, and the server reads back exactly what it offered.
export const MCP_TOOL_APPROVAL_QUESTION = 'mcp_tool_approval';
/** codex asks the same with `mcp_tool_call_approval…` ids and its own labels. */
export const CODEX_MCP_TOOL_APPROVAL_PREFIX = 'mcp_tool_call_approval';
export const MCP_APPROVAL_ACCEPT = 'Accept';
export const MCP_APPROVAL_DECLINE = 'Decline';
export const MCP_APPROVAL_CANCEL = 'Cancel';
