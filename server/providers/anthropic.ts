// Anthropic's Messages API: entries become alternating user/assistant messages of content blocks,
// the raw event stream becomes model events. Prompt caching marks three breakpoints: the system
// prompt (the API caches tools, then system, so this one covers both, and together they pass the
// 1,024-token minimum a breakpoint needs), the end of the newest user message and the end of the
// one before it. The API looks back at most 20 blocks from a breakpoint for an earlier write, so a
// step that adds many tool results would miss the previous request's write with only the newest
// marked; the previous user message's end is exactly where that write was.
import type {
  ContentBlockParam,
  MessageParam,
  RawMessageStreamEvent,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type {
  ContentPart,
  ConversationEntry,
  ModelEvent,
  ModelRequest,
  ProviderConfig,
  ToolSpec,
} from './types';
import { streamFailure } from './errors';
import { endpoint, postForStream } from './httpStream';
import { sseBatches, type SseEvent } from './sse';
import { NO_TIMEOUT_MS, parseDataUrl, unwrapFreeform, type Wire } from './wire';
import { noTokens } from './tokenUsage';

const DEFAULT_MAX_TOKENS = 8192;
/** The Messages API version the request and event shapes below follow. */
const ANTHROPIC_VERSION = '2023-06-01';
const THINKING_BUDGETS: Record<string, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16_384,
  xhigh: 32_000,
};
const CACHE = { type: 'ephemeral' as const };
const FREEFORM_SCHEMA = {
  type: 'object' as const,
  properties: { input: { type: 'string' } },
  required: ['input'],
};

export function anthropicWire(provider: ProviderConfig, apiKey: string | null): Wire {
  // Configs name the API root with /v1, as the OpenAI wires do; the client adds /v1 itself.
  const root = provider.baseUrl.replace(/\/v1\/?$/, '');
  const url = endpoint(root, '/v1/messages', provider.queryParams);
  const headers = {
    ...(apiKey ? { 'x-api-key': apiKey } : {}),
    'anthropic-version': ANTHROPIC_VERSION,
    ...provider.httpHeaders,
  };
  return {
    stream(request, signal, progress) {
      const freeform = new Set(request.tools.filter((t) => t.kind === 'freeform').map((t) => t.name));
      const send = () =>
        postForStream({ url, headers, body: { ...body(request, provider), stream: true }, signal });
      return events(sseBatches(send, progress), provider.name, freeform);
    },
    async listModels(signal) {
      const { Anthropic } = await import('./sdks');
      const client = new Anthropic({
        apiKey: apiKey ?? 'none',
        baseURL: root,
        maxRetries: 0,
        timeout: NO_TIMEOUT_MS,
        defaultHeaders: provider.httpHeaders,
        defaultQuery: provider.queryParams,
      });
      const ids: string[] = [];
      for await (const model of client.models.list({}, { signal })) ids.push(model.id);
      return ids;
    },
  };
}

function body(request: ModelRequest, provider: ProviderConfig) {
  const maxTokens = provider.maxTokens ?? DEFAULT_MAX_TOKENS;
  const budget = request.reasoningEffort ? THINKING_BUDGETS[request.reasoningEffort] : undefined;
  // The budget must stay below max_tokens, and at least 1,024.
  const thinkingBudget = budget ? Math.min(budget, maxTokens - 1024) : 0;
  const tools = request.tools.map(toTool);
  return {
    model: request.model,
    max_tokens: maxTokens,
    // The API rejects empty text blocks, so an empty system prompt is left out.
    ...(request.instructions
      ? { system: [{ type: 'text' as const, text: request.instructions, cache_control: CACHE }] }
      : {}),
    messages: cacheLastUserMessages(toMessages(request.input), 2),
    ...(tools.length ? { tools } : {}),
    ...(thinkingBudget >= 1024
      ? { thinking: { type: 'enabled' as const, budget_tokens: thinkingBudget } }
      : {}),
    stream: true as const,
  };
}

function blocks(parts: ContentPart[]): ContentBlockParam[] {
  return parts.map((p): ContentBlockParam => {
    if (p.type === 'text') return { type: 'text', text: p.text };
    const data = parseDataUrl(p.url);
    return data
      ? {
          type: 'image',
          source: { type: 'base64', media_type: data.mediaType as 'image/png', data: data.data },
        }
      : { type: 'image', source: { type: 'url', url: p.url } };
  });
}

function toMessages(entries: ConversationEntry[]): MessageParam[] {
  const messages: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const add = (role: 'user' | 'assistant', content: ContentBlockParam[]) => {
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content.push(...content);
    else messages.push({ role, content: [...content] });
  };
  for (const entry of entries) {
    switch (entry.kind) {
      case 'user':
        add('user', blocks(entry.content));
        break;
      case 'developer':
        add('user', [{ type: 'text', text: entry.text }]);
        break;
      case 'assistant':
        if (entry.text) add('assistant', [{ type: 'text', text: entry.text }]);
        break;
      case 'reasoning':
        // Thinking replays only with the signature that proves it came from the model.
        if (entry.signature)
          add('assistant', [
            { type: 'thinking', thinking: entry.summary.join(''), signature: entry.signature },
          ]);
        break;
      case 'toolCall':
        add('assistant', [{ type: 'tool_use', id: entry.callId, name: entry.name, input: toolInput(entry) }]);
        break;
      case 'toolResult': {
        const content =
          typeof entry.output === 'string' ? entry.output : (blocks(entry.output) as TextBlockParam[]);
        add('user', [
          {
            type: 'tool_result',
            tool_use_id: entry.callId,
            content,
            ...(entry.isError ? { is_error: true } : {}),
          },
        ]);
        break;
      }
    }
  }
  return messages;
}

function toolInput(entry: Extract<ConversationEntry, { kind: 'toolCall' }>): unknown {
  if (entry.custom) return { input: entry.arguments };
  try {
    return JSON.parse(entry.arguments || '{}');
  } catch {
    return {};
  }
}

/** Marks the end of the last `count` user messages as cache breakpoints. */
function cacheLastUserMessages(messages: MessageParam[], count: number): MessageParam[] {
  let left = count;
  for (let i = messages.length - 1; i >= 0 && left > 0; i--) {
    const content = messages[i]!.content;
    if (messages[i]!.role !== 'user' || !Array.isArray(content) || content.length === 0) continue;
    const lastBlock = content[content.length - 1]!;
    content[content.length - 1] = { ...lastBlock, cache_control: CACHE } as ContentBlockParam;
    left--;
  }
  return messages;
}

function toTool(tool: ToolSpec): Tool {
  const schema = tool.kind === 'function' ? (tool.parameters as Tool['input_schema']) : FREEFORM_SCHEMA;
  return { name: tool.name, description: tool.description, input_schema: schema };
}

type Block =
  | { kind: 'text'; text: string[] }
  | { kind: 'thinking'; text: string[]; signature: string }
  | { kind: 'tool'; id: string; name: string; json: string[] };

type StreamEvent =
  RawMessageStreamEvent | { type: 'ping' } | { type: 'error'; error: { type: string; message: string } };

async function* events(
  batches: AsyncIterable<SseEvent[]>,
  provider: string,
  freeform: Set<string>,
): AsyncGenerator<ModelEvent> {
  const open = new Map<number, Block>();
  const usage = noTokens();
  for await (const batch of batches)
    for (const sse of batch) {
      const event = JSON.parse(sse.data) as StreamEvent;
      switch (event.type) {
        case 'message_start': {
          const u = event.message.usage;
          usage.cachedInputTokens = u.cache_read_input_tokens ?? 0;
          usage.cacheWriteInputTokens = u.cache_creation_input_tokens ?? 0;
          usage.inputTokens = u.input_tokens + usage.cachedInputTokens + usage.cacheWriteInputTokens;
          break;
        }
        case 'content_block_start': {
          const key = String(event.index);
          const block = event.content_block;
          if (block.type === 'text') {
            open.set(event.index, { kind: 'text', text: [] });
            yield { type: 'messageStart', key };
            if (block.text) yield* textDelta(open, event.index, block.text);
          } else if (block.type === 'thinking') {
            open.set(event.index, { kind: 'thinking', text: [], signature: '' });
            yield { type: 'reasoningStart', key };
            yield { type: 'reasoningSummaryPartAdded', key, summaryIndex: 0 };
          } else if (block.type === 'tool_use') {
            open.set(event.index, { kind: 'tool', id: block.id, name: block.name, json: [] });
          }
          break;
        }
        case 'content_block_delta': {
          const block = open.get(event.index);
          const delta = event.delta;
          if (delta.type === 'text_delta') yield* textDelta(open, event.index, delta.text);
          else if (delta.type === 'thinking_delta' && block?.kind === 'thinking') {
            block.text.push(delta.thinking);
            yield {
              type: 'reasoningSummaryDelta',
              key: String(event.index),
              summaryIndex: 0,
              delta: delta.thinking,
            };
          } else if (delta.type === 'signature_delta' && block?.kind === 'thinking')
            block.signature += delta.signature;
          else if (delta.type === 'input_json_delta' && block?.kind === 'tool')
            block.json.push(delta.partial_json);
          break;
        }
        case 'content_block_stop': {
          const block = open.get(event.index);
          open.delete(event.index);
          if (block) yield blockDone(String(event.index), block, freeform);
          break;
        }
        case 'message_delta':
          usage.outputTokens = event.usage.output_tokens;
          break;
        case 'message_stop':
          usage.totalTokens = usage.inputTokens + usage.outputTokens;
          yield { type: 'completed', usage };
          return;
        case 'error':
          throw streamFailure(provider, event.error.type, event.error.message);
      }
    }
}

function* textDelta(open: Map<number, Block>, index: number, text: string): Generator<ModelEvent> {
  const block = open.get(index);
  if (block?.kind !== 'text') return;
  block.text.push(text);
  yield { type: 'messageDelta', key: String(index), delta: text };
}

function blockDone(key: string, block: Block, freeform: Set<string>): ModelEvent {
  if (block.kind === 'text') return { type: 'messageDone', key, text: block.text.join('') };
  if (block.kind === 'thinking') {
    return {
      type: 'reasoningDone',
      key,
      entry: { kind: 'reasoning', summary: [block.text.join('')], content: [], signature: block.signature },
    };
  }
  const json = block.json.join('') || '{}';
  const custom = freeform.has(block.name);
  const args = custom ? unwrapFreeform(json) : json;
  return {
    type: 'toolCall',
    call: { kind: 'toolCall', callId: block.id, name: block.name, arguments: args, custom },
  };
}
