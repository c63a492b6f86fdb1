// The OpenAI Responses API: conversation entries become input items, the stream's typed events
// become model events. Reasoning is requested encrypted so it can be replayed with store: false.
import type OpenAI from 'openai';
import type { ResponseInputItem, ResponseStreamEvent, Tool } from 'openai/resources/responses/responses';
import { streamFailure } from './errors';
import { jsonWithout } from './jsonWithout';
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
import { Opened, type Wire } from './wire';

export function responsesWire(provider: ProviderConfig, apiKey: string | null): Wire {
  const post = openaiStream(provider, apiKey, '/responses');
  return {
    stream(request, signal, progress) {
      const send = () => post({ ...body(request), stream: true }, signal);
      return events(
        sseBatches(send, progress, (name) => name === '' || READ.has(name)),
        provider.name,
      );
    },
    listModels: (signal) => listOpenAiModels(provider, apiKey, signal),
  };
}

function body(request: ModelRequest) {
  // Summaries default to `auto` as in Codex; `none` asks for reasoning without them.
  const summary = request.reasoningSummary ?? 'auto';
  const reasoning =
    request.reasoningEffort || request.reasoningSummary
      ? {
          ...(request.reasoningEffort ? { effort: request.reasoningEffort } : {}),
          ...(summary !== 'none' ? { summary } : {}),
        }
      : undefined;
  return {
    model: request.model,
    instructions: request.instructions,
    input: request.input.flatMap(toInput),
    tools: request.tools.map(toTool),
    tool_choice: 'auto' as const,
    parallel_tool_calls: true,
    store: false,
    prompt_cache_key: request.promptCacheKey,
    ...(reasoning ? { reasoning, include: ['reasoning.encrypted_content' as const] } : {}),
    ...(request.outputSchema
      ? {
          text: {
            format: {
              type: 'json_schema' as const,
              name: 'output',
              schema: request.outputSchema as Record<string, unknown>,
              strict: true,
            },
          },
        }
      : {}),
  } as OpenAI.Responses.ResponseCreateParamsStreaming;
}

const content = (parts: ContentPart[]) =>
  parts.map((p) =>
    p.type === 'text'
      ? { type: 'input_text' as const, text: p.text }
      : { type: 'input_image' as const, image_url: p.url, detail: 'auto' as const },
  );

function toInput(entry: ConversationEntry): ResponseInputItem[] {
  switch (entry.kind) {
    case 'user':
      return [{ role: 'user', content: content(entry.content) }];
    case 'developer':
      return [{ role: 'developer', content: entry.text }];
    case 'assistant':
      // An output message as the API returned it; without `store` there is no id to refer to.
      return [
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: entry.text, annotations: [] }],
        } as unknown as ResponseInputItem,
      ];
    case 'reasoning':
      // Without its encrypted form a reasoning item cannot be replayed when nothing is stored.
      return entry.encryptedContent
        ? [
            {
              type: 'reasoning',
              ...(entry.providerItemId ? { id: entry.providerItemId } : {}),
              summary: entry.summary.map((text) => ({ type: 'summary_text' as const, text })),
              encrypted_content: entry.encryptedContent,
            } as ResponseInputItem,
          ]
        : [];
    case 'toolCall':
      return [
        entry.custom
          ? { type: 'custom_tool_call', call_id: entry.callId, name: entry.name, input: entry.arguments }
          : { type: 'function_call', call_id: entry.callId, name: entry.name, arguments: entry.arguments },
      ];
    case 'toolResult': {
      const output = typeof entry.output === 'string' ? entry.output : content(entry.output);
      return [
        (entry.custom
          ? { type: 'custom_tool_call_output', call_id: entry.callId, output }
          : { type: 'function_call_output', call_id: entry.callId, output }) as ResponseInputItem,
      ];
    }
  }
}

function toTool(tool: ToolSpec): Tool {
  return tool.kind === 'function'
    ? {
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        strict: false,
      }
    : ({
        type: 'custom',
        name: tool.name,
        description: tool.description,
        ...(tool.format ? { format: tool.format } : {}),
      } as Tool);
}

/**
 * The events read; the others (output_text.done, content_part.done, …) repeat what the deltas
 * carried, a long answer whole each time, and are dropped unparsed.
 */
const READ = new Set([
  'response.output_item.added',
  'response.output_text.delta',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_text.delta',
  'response.reasoning_text.delta',
  'response.output_item.done',
  'response.completed',
  'response.failed',
  'response.incomplete',
  'error',
]);

/** What `response.completed` repeats of the answer: read from the items already, never parsed again. */
const COMPLETED_OUTPUT = ['response', 'output'];

type StreamEvent = ResponseStreamEvent | { type: 'error'; code: string | null; message: string };

async function* events(batches: AsyncIterable<SseEvent[]>, provider: string): AsyncGenerator<ModelEvent> {
  const opened = new Opened();
  for await (const batch of batches)
    for (let event = nextEvent(batch); event; event = nextEvent(batch)) {
      switch (event.type) {
        case 'response.output_item.added': {
          const { item } = event;
          if (item.type === 'message' && opened.first(item.id)) yield { type: 'messageStart', key: item.id };
          if (item.type === 'reasoning' && opened.first(item.id))
            yield { type: 'reasoningStart', key: item.id };
          break;
        }
        case 'response.output_text.delta':
          if (opened.first(event.item_id)) yield { type: 'messageStart', key: event.item_id };
          yield { type: 'messageDelta', key: event.item_id, delta: event.delta };
          break;
        case 'response.reasoning_summary_part.added':
          if (opened.first(event.item_id)) yield { type: 'reasoningStart', key: event.item_id };
          yield { type: 'reasoningSummaryPartAdded', key: event.item_id, summaryIndex: event.summary_index };
          break;
        case 'response.reasoning_summary_text.delta':
          if (opened.first(event.item_id)) yield { type: 'reasoningStart', key: event.item_id };
          yield {
            type: 'reasoningSummaryDelta',
            key: event.item_id,
            summaryIndex: event.summary_index,
            delta: event.delta,
          };
          break;
        case 'response.reasoning_text.delta':
          if (opened.first(event.item_id)) yield { type: 'reasoningStart', key: event.item_id };
          yield {
            type: 'reasoningTextDelta',
            key: event.item_id,
            contentIndex: event.content_index,
            delta: event.delta,
          };
          break;
        case 'response.output_item.done':
          yield* itemDone(event.item, opened);
          break;
        case 'response.completed':
          yield { type: 'completed', usage: usageOf(event.response.usage) };
          return;
        case 'response.failed':
        case 'response.incomplete': {
          const error = event.response.error;
          const reason = event.response.incomplete_details?.reason;
          throw streamFailure(
            provider,
            error?.code ?? reason ?? 'failed',
            error?.message ?? `the response is ${event.response.status}`,
          );
        }
        case 'error':
          throw streamFailure(provider, event.code ?? 'error', event.message);
      }
    }
}

/**
 * The next event of a batch, taken off it: the text of an event of megabytes (an item's whole
 * answer) is then let go while what it completes is written and sent, not held by the batch.
 */
function nextEvent(batch: SseEvent[]): StreamEvent | undefined {
  const sse = batch.shift();
  if (!sse) return undefined;
  return JSON.parse(
    sse.event === 'response.completed' ? jsonWithout(sse.data, COMPLETED_OUTPUT) : sse.data,
  ) as StreamEvent;
}

function* itemDone(item: OpenAI.Responses.ResponseOutputItem, opened: Opened): Generator<ModelEvent> {
  if (item.type === 'message') {
    const text = item.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('');
    if (opened.first(item.id)) yield { type: 'messageStart', key: item.id };
    yield { type: 'messageDone', key: item.id, text };
  } else if (item.type === 'reasoning') {
    if (opened.first(item.id)) yield { type: 'reasoningStart', key: item.id };
    yield {
      type: 'reasoningDone',
      key: item.id,
      entry: {
        kind: 'reasoning',
        summary: item.summary.map((s) => s.text),
        content: (item.content ?? []).map((c) => c.text),
        ...(item.encrypted_content ? { encryptedContent: item.encrypted_content } : {}),
        providerItemId: item.id,
      },
    };
  } else if (item.type === 'function_call') {
    yield {
      type: 'toolCall',
      call: {
        kind: 'toolCall',
        callId: item.call_id,
        name: item.name,
        arguments: item.arguments,
        custom: false,
      },
    };
  } else if (item.type === 'custom_tool_call') {
    yield {
      type: 'toolCall',
      call: { kind: 'toolCall', callId: item.call_id, name: item.name, arguments: item.input, custom: true },
    };
  }
}

function usageOf(usage: OpenAI.Responses.ResponseUsage | undefined): TokenUsage | null {
  if (!usage) return null;
  return {
    inputTokens: usage.input_tokens,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    cacheWriteInputTokens: 0,
    outputTokens: usage.output_tokens,
    reasoningOutputTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
    totalTokens: usage.total_tokens,
  };
}
