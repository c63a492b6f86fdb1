// The tools of MCP servers, offered to the model as `mcp__<server>__<tool>` unless an app that names
// the server leaves the tool out. A call shows as an mcpToolCall item (progress as
// item/mcpToolCall/progress) and asks the user first through item/tool/requestUserInput as the app's
// approval mode says (server/apps/appToolPolicy.ts); by default when the tool says it is destructive,
// or when the policy is untrusted and the tool does not say it only reads. Under `never`, where nobody
// can be asked, such a call is refused. The server's answer goes back to the model; a failure, a
// decline or a timeout completes the item with an error and tells the model why.
import { createHash } from 'node:crypto';
import { parseArguments, type AgentTool, type ToolContext, type ToolResult } from '../agent/tool';
import type { AppToolApproval } from '../apps/appConfig';
import type { AskForApproval } from '../protocol/enums';
import type { ToolHints, ToolPolicyOf } from '../apps/appToolPolicy';
import type { McpConnection, CallToolResult } from '../mcp/connection';
import type { McpTool, McpToolCallItem } from '../protocol/mcp';
import {
  MCP_APPROVAL_ACCEPT,
  MCP_APPROVAL_CANCEL,
  MCP_APPROVAL_DECLINE,
  MCP_TOOL_APPROVAL_QUESTION,
} from '../protocol/mcpApproval';
import type { ToolRequestUserInputQuestion } from '../protocol/toolCallItems';
import type { ContentPart } from '../providers/types';

const APPROVAL_QUESTION = MCP_TOOL_APPROVAL_QUESTION;
const ACCEPT = MCP_APPROVAL_ACCEPT;
const CANCEL = MCP_APPROVAL_CANCEL;
/** What of one call's text output the model gets at most. */
const OUTPUT_LIMIT = 64 * 1024;

interface Annotations {
  readOnlyHint?: unknown;
  destructiveHint?: unknown;
  openWorldHint?: unknown;
}

/**
 * The tools of every connected server that the apps allow; names the model sees are unique and at
 * most 64 characters.
 */
export function mcpTools(connections: McpConnection[], policyOf: ToolPolicyOf): AgentTool[] {
  const tools: AgentTool[] = [];
  const taken = new Set<string>();
  for (const connection of connections) {
    if (connection.status !== 'connected') continue;
    for (const tool of connection.tools) {
      const hints = hintsOf(tool);
      const policy = policyOf(connection.config.name, tool.name, hints);
      const name = modelToolName(connection.config.name, tool.name);
      if (!policy.offered || taken.has(name)) continue;
      taken.add(name);
      tools.push(mcpTool(connection, tool, name, hints, policy.approval));
    }
  }
  return tools;
}

export function hintsOf(tool: McpTool): ToolHints {
  const annotations = (
    typeof tool.annotations === 'object' && tool.annotations ? tool.annotations : {}
  ) as Annotations;
  const readOnly = annotations.readOnlyHint === true;
  return {
    readOnly,
    destructive: annotations.destructiveHint === true && !readOnly,
    openWorld: annotations.openWorldHint === true,
  };
}

/** Whether a call must ask the user first, by the app's approval mode. */
function mustAsk(approval: AppToolApproval, hints: ToolHints, context: ToolContext): boolean {
  return needsApproval(approval, hints, context.permissions.approvalPolicy);
}

/** The approval rule itself, for the agent's calls and a client's direct ones (mcpServer/tool/call). */
export function needsApproval(
  approval: AppToolApproval,
  hints: ToolHints,
  approvalPolicy: AskForApproval,
): boolean {
  switch (approval) {
    case 'approve':
      return false;
    case 'prompt':
      return true;
    case 'writes':
      return !hints.readOnly;
    case 'auto':
      return hints.destructive || (approvalPolicy === 'untrusted' && !hints.readOnly);
  }
}

export function modelToolName(server: string, tool: string): string {
  const name = `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (name.length <= 64) return name;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, 55)}_${hash}`;
}

function mcpTool(
  connection: McpConnection,
  tool: McpTool,
  name: string,
  hints: ToolHints,
  approval: AppToolApproval,
): AgentTool {
  const server = connection.config.name;
  const { readOnly, destructive } = hints;
  const schema = tool.inputSchema;
  return {
    spec: {
      kind: 'function',
      name,
      description: `${tool.description ?? tool.title ?? tool.name} (tool "${tool.name}" of the MCP server "${server}")`,
      parameters:
        typeof schema === 'object' && schema !== null && !Array.isArray(schema)
          ? (schema as Record<string, unknown>)
          : { type: 'object', properties: {} },
    },

    async run(call, context): Promise<ToolResult> {
      const args = parseArguments(call);
      const started = Date.now();
      const item: McpToolCallItem = {
        type: 'mcpToolCall',
        id: call.callId,
        server,
        tool: tool.name,
        status: 'inProgress',
        arguments: args,
        result: null,
        error: null,
        durationMs: null,
        readOnlyHint: readOnly,
      };
      const fail = async (message: string, result: McpToolCallItem['result'] = null): Promise<ToolResult> => {
        await context.emit.itemCompleted({
          ...item,
          status: 'failed',
          result,
          error: { message },
          durationMs: Date.now() - started,
        });
        return { output: `${tool.name} (${server}) failed: ${message}`, isError: true };
      };
      const asks = mustAsk(approval, hints, context);
      context.emit.itemStarted(item);
      if (context.permissions.planning && !readOnly)
        return fail('plan mode runs only tools that say they only read (readOnlyHint); it did not run');
      if (asks && context.permissions.approvalPolicy === 'never') {
        return fail(
          'it may change data and needs approval, which the approval policy "never" does not allow; it did not run',
        );
      }
      if (asks) {
        const refusal = await askApproval(context, call.callId, server, tool.name, args, destructive);
        if (refusal) return fail(refusal);
      }
      let result: CallToolResult;
      try {
        result = await connection.callTool(tool.name, args, {
          signal: context.signal,
          onProgress: (message) =>
            context.emit.itemDelta('item/mcpToolCall/progress', { itemId: call.callId, message }),
        });
      } catch (error) {
        return fail(context.signal.aborted ? 'interrupted' : (error as Error).message);
      }
      const shown = { content: Array.isArray(result.content) ? result.content : [], ...pick(result) };
      if (result.isError === true) return fail(textOf(shown.content) || 'the tool reported an error', shown);
      await context.emit.itemCompleted({
        ...item,
        status: 'completed',
        result: shown,
        durationMs: Date.now() - started,
      });
      return { output: forModel(shown) };
    },
  };
}

/** Asks the user; returns why the call must not run, or null to run it. */
async function askApproval(
  context: ToolContext,
  itemId: string,
  server: string,
  tool: string,
  args: Record<string, unknown>,
  destructive: boolean,
): Promise<string | null> {
  const shownArgs = JSON.stringify(args);
  const question: ToolRequestUserInputQuestion = {
    id: APPROVAL_QUESTION,
    header: 'Approve tool',
    question: `Allow the MCP server "${server}" to run ${tool}${destructive ? ' (it may change or delete data)' : ''} with ${shownArgs.length > 500 ? `${shownArgs.slice(0, 500)}…` : shownArgs}?`,
    isOther: false,
    isSecret: false,
    options: [
      { label: ACCEPT, description: 'Run the tool this once.' },
      { label: MCP_APPROVAL_DECLINE, description: 'Do not run it; the agent is told and goes on.' },
      { label: CANCEL, description: 'Do not run it and stop the turn.' },
    ],
  };
  const answer = await context.approvals.ask(
    'item/tool/requestUserInput',
    { threadId: context.threadId, turnId: context.turnId, itemId, questions: [question], isBlocking: true },
    'waitingOnApproval',
  );
  if (!answer.answered) return `not approved: ${answer.message}`;
  const chosen = readChoice(answer.result);
  if (chosen === ACCEPT) return null;
  if (chosen === CANCEL) {
    context.approvals.interruptTurn();
    return 'the user cancelled the call and the turn';
  }
  return 'the user declined the call';
}

function readChoice(result: unknown): string | null {
  const answers = (result as { answers?: Record<string, { answers?: unknown }> } | null)?.answers;
  const list =
    answers && Object.hasOwn(answers, APPROVAL_QUESTION) ? answers[APPROVAL_QUESTION]?.answers : null;
  return Array.isArray(list) && typeof list[0] === 'string' ? list[0] : null;
}

function pick(result: CallToolResult): { structuredContent?: unknown } {
  return result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {};
}

function textOf(content: unknown[]): string {
  return content
    .map((part) => (isText(part) ? part.text : ''))
    .join('\n')
    .slice(0, 2000);
}

const isText = (part: unknown): part is { type: 'text'; text: string } =>
  (part as { type?: unknown })?.type === 'text' && typeof (part as { text?: unknown }).text === 'string';

/** Text and images go to the model as such; other content (audio, resources) as JSON text. */
function forModel(result: { content: unknown[]; structuredContent?: unknown }): ContentPart[] | string {
  const parts: ContentPart[] = [];
  let budget = OUTPUT_LIMIT;
  const addText = (text: string) => {
    const kept = text.slice(0, Math.max(0, budget));
    budget -= kept.length;
    if (kept)
      parts.push({ type: 'text', text: kept.length < text.length ? `${kept}\n[output truncated]` : kept });
  };
  for (const part of result.content) {
    const p = part as { type?: unknown; data?: unknown; mimeType?: unknown };
    if (isText(part)) addText(part.text);
    else if (p.type === 'image' && typeof p.data === 'string' && typeof p.mimeType === 'string')
      parts.push({ type: 'image', url: `data:${p.mimeType};base64,${p.data}` });
    else addText(JSON.stringify(part));
  }
  if (!parts.length && result.structuredContent !== undefined)
    addText(JSON.stringify(result.structuredContent));
  return parts.length ? parts : '(no output)';
}
