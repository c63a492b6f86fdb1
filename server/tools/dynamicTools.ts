// Dynamic tools: tools a client declared at thread/start (experimental) and runs itself. A call
// shows as a dynamicToolCall item and goes to the client as the item/tool/call server request; the
// client's contentItems (text and images) go back to the model.
import type { AgentTool, ToolResult } from '../agent/tool';
import type { DynamicToolCallItem, DynamicToolCallOutputContentItem } from '../protocol/toolCallItems';
import type { DynamicToolSpec } from '../protocol/threadMethods';
import type { ContentPart } from '../providers/types';

export function dynamicTools(specs: DynamicToolSpec[]): AgentTool[] {
  return specs.map(dynamicTool);
}

function dynamicTool(spec: DynamicToolSpec): AgentTool {
  const schema = spec.inputSchema;
  return {
    spec: {
      kind: 'function',
      name: spec.name,
      description: spec.description,
      parameters:
        typeof schema === 'object' && schema !== null && !Array.isArray(schema)
          ? (schema as Record<string, unknown>)
          : { type: 'object', properties: {} },
    },

    async run(call, { threadId, turnId, emit, approvals }): Promise<ToolResult> {
      const args = parseLoosely(call.arguments);
      const started = Date.now();
      const item: DynamicToolCallItem = {
        type: 'dynamicToolCall',
        id: call.callId,
        tool: spec.name,
        arguments: args,
        namespace: null,
        status: 'inProgress',
        contentItems: null,
        success: null,
        durationMs: null,
      };
      emit.itemStarted(item);
      const answer = await approvals.ask(
        'item/tool/call',
        { threadId, turnId, callId: call.callId, tool: spec.name, arguments: args, namespace: null },
        null,
      );
      const durationMs = Date.now() - started;
      const reply = answer.answered ? readReply(answer.result) : null;
      if (!reply) {
        const why = answer.answered ? 'the client sent no valid contentItems' : answer.message;
        await emit.itemCompleted({ ...item, status: 'failed', success: false, durationMs });
        return { output: `${spec.name} did not run: ${why}`, isError: true };
      }
      await emit.itemCompleted({
        ...item,
        status: reply.success ? 'completed' : 'failed',
        contentItems: reply.contentItems,
        success: reply.success,
        durationMs,
      });
      const output = reply.contentItems.length ? toContent(reply.contentItems) : '(no output)';
      return { output, isError: !reply.success };
    },
  };
}

/** The model's arguments as JSON when they parse, else as the text it sent. */
function parseLoosely(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return text;
  }
}

function readReply(
  result: unknown,
): { contentItems: DynamicToolCallOutputContentItem[]; success: boolean } | null {
  const { contentItems, success } = (result ?? {}) as { contentItems?: unknown; success?: unknown };
  if (!Array.isArray(contentItems)) return null;
  const items = contentItems.filter(
    (c): c is DynamicToolCallOutputContentItem =>
      (c?.type === 'inputText' && typeof c.text === 'string') ||
      (c?.type === 'inputImage' && typeof c.imageUrl === 'string') ||
      (c?.type === 'inputAudio' && typeof c.audioUrl === 'string'),
  );
  return { contentItems: items, success: success !== false };
}

/** What the model sees: text and images; audio is named, since no wire here carries it. */
function toContent(items: DynamicToolCallOutputContentItem[]): ContentPart[] {
  return items.map((c): ContentPart => {
    if (c.type === 'inputText') return { type: 'text', text: c.text };
    if (c.type === 'inputImage') return { type: 'image', url: c.imageUrl };
    return { type: 'text', text: '[audio output omitted]' };
  });
}
