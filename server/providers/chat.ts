// OpenAI-compatible Chat Completions (Ollama, LM Studio, vLLM, OpenRouter, …): one message per
// response, tool calls assembled from their streamed pieces by index, reasoning from the
// `reasoning_content` (or `reasoning`) deltas some servers send.
import type OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { disconnected, streamFailure } from './errors';
import { listOpenAiModels, openaiStream } from './openaiClient';
import { sseBatches, type SseEvent } from './sse';
import type {
  ContentPart,
  ConversationEntry,
  ModelEvent,
  ModelRequest,
  ProviderConfig,
  TokenUsage,
  ToolSpec,
} from './types';
import { textOf, unwrapFreeform, type Wire } from './wire';

const FREEFORM_PARAMETERS = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The raw input for this tool.' } },
  required: ['input'],
};

export function chatWire(provider: ProviderConfig, apiKey: string | null): Wire {
  const post = openaiStream(provider, apiKey, '/chat/completions');
  return {
    stream(request, signal, progress) {
      const freeform = new Set(request.tools.filter((t) => t.kind === 'freeform').map((t) => t.name));
      const send = () => post(body(request, provider), signal);
      return events(sseBatches(send, progress), provider.name, freeform);
    },
    listModels: (signal) => listOpenAiModels(provider, apiKey, signal),
  };
}

function body(request: ModelRequest, provider: ProviderConfig) {
  return {
    model: request.model,
    messages: [
      ...(request.instructions ? [{ role: 'system' as const, content: request.instructions }] : []),
      ...toMessages(request.input),
    ],
    ...(request.tools.length ? { tools: request.tools.map(toTool) } : {}),
    stream: true as const,
    stream_options: { include_usage: true },
    ...(provider.maxTokens ? { max_tokens: provider.maxTokens } : {}),
    ...(request.reasoningEffort ? { reasoning_effort: request.reasoningEffort as 'low' } : {}),
    ...(request.outputSchema
      ? {
          response_format: {
            type: 'json_schema' as const,
            json_schema: {
              name: 'output',
              schema: request.outputSchema as Record<string, unknown>,
              strict: true,
            },
          },
        }
      : {}),
  };
}

const content = (parts: ContentPart[]) =>
  parts.length === 1 && parts[0]!.type === 'text'
    ? parts[0]!.text
    : parts.map((p) =>
        p.type === 'text'
          ? { type: 'text' as const, text: p.text }
          : { type: 'image_url' as const, image_url: { url: p.url } },
      );

function toMessages(entries: ConversationEntry[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  // Tool messages carry only text on this wire: images a tool returned (view_image) follow the
  // group of tool results as a user message, so the model still sees them.
  let toolImages: ContentPart[] = [];
  const flushToolImages = () => {
    if (toolImages.length === 0) return;
    messages.push({
      role: 'user',
      content: content([{ type: 'text', text: 'Images from the tool results above:' }, ...toolImages]),
    });
    toolImages = [];
  };
  for (const entry of entries) {
    if (entry.kind !== 'toolResult') flushToolImages();
    const last = messages[messages.length - 1];
    switch (entry.kind) {
      case 'user':
        messages.push({ role: 'user', content: content(entry.content) });
        break;
      // Harness notes go as user text: many local chat templates reject a system message anywhere but first.
      case 'developer':
        messages.push({ role: 'user', content: entry.text });
        break;
      case 'assistant':
        messages.push({ role: 'assistant', content: entry.text });
        break;
      case 'toolCall': {
        const call = {
          id: entry.callId,
          type: 'function' as const,
          function: {
            name: entry.name,
            arguments: entry.custom ? JSON.stringify({ input: entry.arguments }) : entry.arguments,
          },
        };
        if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
        else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
        break;
      }
      case 'toolResult':
        messages.push({ role: 'tool', tool_call_id: entry.callId, content: textOf(entry.output) });
        if (typeof entry.output !== 'string')
          toolImages.push(...entry.output.filter((p) => p.type === 'image'));
        break;
      case 'reasoning':
        break;
    }
  }
  flushToolImages();
  return messages;
}

function toTool(tool: ToolSpec): ChatCompletionTool {
  const parameters = tool.kind === 'function' ? tool.parameters : FREEFORM_PARAMETERS;
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
}

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

async function* events(
  batches: AsyncIterable<SseEvent[]>,
  provider: string,
  freeform: Set<string>,
): AsyncGenerator<ModelEvent> {
  const calls: PendingCall[] = [];
  const text: string[] = [];
  const thoughts: string[] = [];
  let finished = false;
  let usage: TokenUsage | null = null;
  for await (const batch of batches)
    for (const sse of batch) {
      if (sse.data === '[DONE]') break;
      const chunk = JSON.parse(sse.data) as ChatCompletionChunk & {
        error?: { message?: string; code?: unknown };
      };
      if (chunk.error)
        throw streamFailure(provider, String(chunk.error.code ?? 'error'), chunk.error.message ?? '');
      if (chunk.usage) usage = usageOf(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta as ChatCompletionChunk.Choice.Delta & {
        reasoning_content?: string;
        reasoning?: string;
      };
      const thought = delta.reasoning_content ?? delta.reasoning;
      if (thought) {
        if (thoughts.length === 0) {
          yield { type: 'reasoningStart', key: 'reasoning' };
          yield { type: 'reasoningSummaryPartAdded', key: 'reasoning', summaryIndex: 0 };
        }
        thoughts.push(thought);
        yield { type: 'reasoningSummaryDelta', key: 'reasoning', summaryIndex: 0, delta: thought };
      }
      if (delta.content) {
        if (text.length === 0) yield { type: 'messageStart', key: 'message' };
        text.push(delta.content);
        yield { type: 'messageDelta', key: 'message', delta: delta.content };
      }
      for (const piece of delta.tool_calls ?? []) {
        const call = (calls[piece.index] ??= { id: '', name: '', arguments: '' });
        call.id ||= piece.id ?? '';
        call.name ||= piece.function?.name ?? '';
        call.arguments += piece.function?.arguments ?? '';
      }
      if (choice.finish_reason) finished = true;
    }
  if (!finished) throw disconnected(provider, 'the stream ended without a finish reason');
  if (thoughts.length) {
    const entry = { kind: 'reasoning' as const, summary: [thoughts.join('')], content: [] };
    yield { type: 'reasoningDone', key: 'reasoning', entry };
  }
  if (text.length) yield { type: 'messageDone', key: 'message', text: text.join('') };
  for (const [index, call] of calls.entries()) {
    if (!call) continue;
    const custom = freeform.has(call.name);
    yield {
      type: 'toolCall',
      call: {
        kind: 'toolCall',
        callId: call.id || `call_${index}`,
        name: call.name,
        arguments: custom ? unwrapFreeform(call.arguments) : call.arguments,
        custom,
      },
    };
  }
  yield { type: 'completed', usage };
}

function usageOf(usage: OpenAI.CompletionUsage): TokenUsage {
  return {
    inputTokens: usage.prompt_tokens,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteInputTokens: 0,
    outputTokens: usage.completion_tokens,
    reasoningOutputTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
    totalTokens: usage.total_tokens,
  };
}
