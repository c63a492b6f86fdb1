// The one seam between the agent loop and model APIs. The loop speaks provider-neutral
// conversation entries and events; each wire format (Responses, Chat Completions, Anthropic
// Messages) translates both ways and owns its retries, so the loop never sees HTTP.

export type WireApi = 'responses' | 'chat' | 'anthropic';

/** One configured model provider, from the built-ins and `[model_providers.<id>]` in config.toml. */
export interface ProviderConfig {
  id: string;
  name: string;
  baseUrl: string;
  wireApi: WireApi;
  /** Environment variable holding the API key; when set in the environment it wins over auth.json. */
  envKey: string | null;
  httpHeaders: Record<string, string>;
  queryParams: Record<string, string>;
  /** Retries of a request that failed before its stream began (429, 5xx, connection errors). */
  requestMaxRetries: number;
  /** Retries of a stream that was cut or went idle before it completed. */
  streamMaxRetries: number;
  streamIdleTimeoutMs: number;
  requiresOpenaiAuth: boolean;
  /** Anthropic's required `max_tokens` (and an optional cap on the other wires). */
  maxTokens: number | null;
}

export interface TextPart {
  type: 'text';
  text: string;
}
/** An image as a URL: https://… or a data: URL (local images are read and inlined by the loop). */
export interface ImagePart {
  type: 'image';
  url: string;
}
export type ContentPart = TextPart | ImagePart;

/**
 * What the model sees, in order. Reasoning keeps the provider's opaque replay data (Responses'
 * `encrypted_content` and item id, Anthropic's thinking `signature`) so a later request can send
 * it back verbatim.
 */
export type ConversationEntry =
  | { kind: 'user'; content: ContentPart[] }
  /** Instructions from the harness rather than the person (turn aborted, a skill's text, …). */
  | { kind: 'developer'; text: string }
  | { kind: 'assistant'; text: string }
  | {
      kind: 'reasoning';
      summary: string[];
      content: string[];
      encryptedContent?: string;
      signature?: string;
      providerItemId?: string;
    }
  /** `custom`: a freeform tool (Responses `custom_tool_call`); `arguments` is then raw text. */
  | { kind: 'toolCall'; callId: string; name: string; arguments: string; custom: boolean }
  | {
      kind: 'toolResult';
      callId: string;
      output: string | ContentPart[];
      custom: boolean;
      isError?: boolean;
    };

export type FunctionToolSpec = {
  kind: 'function';
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
};
/** A tool whose input is free text (apply_patch on the Responses wire); other wires send it as a function with one string argument named `input`. */
export type FreeformToolSpec = {
  kind: 'freeform';
  name: string;
  description: string;
  /** Optional grammar for the Responses wire, e.g. `{type: 'grammar', syntax: 'lark', definition}`. */
  format?: Record<string, unknown>;
};
export type ToolSpec = FunctionToolSpec | FreeformToolSpec;

export interface ModelRequest {
  model: string;
  /** The system prompt. */
  instructions: string;
  input: ConversationEntry[];
  tools: ToolSpec[];
  reasoningEffort: string | null;
  /** Responses' `reasoning.summary` (auto|concise|detailed|none); ignored by the other wires. */
  reasoningSummary: string | null;
  /** A JSON Schema the final message must satisfy (structured output), this request only. */
  outputSchema: unknown;
  /** Identifies the thread for prompt caching where a wire supports it. */
  promptCacheKey: string;
}

export interface TokenUsage {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteInputTokens: number;
  outputTokens: number;
  reasoningOutputTokens: number;
  totalTokens: number;
}

/**
 * What a stream yields. `key` identifies one output (a message or a reasoning block) within the
 * current attempt; every started output is done before `completed`. A tool call is yielded once,
 * whole, when its arguments are complete.
 */
export type ModelEvent =
  | { type: 'messageStart'; key: string }
  | { type: 'messageDelta'; key: string; delta: string }
  | { type: 'messageDone'; key: string; text: string }
  | { type: 'reasoningStart'; key: string }
  | { type: 'reasoningSummaryPartAdded'; key: string; summaryIndex: number }
  | { type: 'reasoningSummaryDelta'; key: string; summaryIndex: number; delta: string }
  | { type: 'reasoningTextDelta'; key: string; contentIndex: number; delta: string }
  | { type: 'reasoningDone'; key: string; entry: Extract<ConversationEntry, { kind: 'reasoning' }> }
  | { type: 'toolCall'; call: Extract<ConversationEntry, { kind: 'toolCall' }> }
  /** What the provider's response headers said of its rate limits (before the response's events). */
  | { type: 'rateLimits'; limits: RateLimits }
  /** A retryable failure: what was yielded since the last `retrying` (or the start) is void. */
  | { type: 'retrying'; attempt: number; delayMs: number; error: ModelError }
  | { type: 'completed'; usage: TokenUsage | null };

export interface RateLimitWindow {
  limit: number;
  remaining: number;
  /** Unix seconds, when the provider said. */
  resetsAt: number | null;
}

export interface RateLimits {
  requests: RateLimitWindow | null;
  tokens: RateLimitWindow | null;
}

/** The error classes a turn can fail with; the loop maps them onto the protocol's codexErrorInfo. */
export type ModelErrorKind =
  | 'contextWindowExceeded'
  | 'usageLimitExceeded'
  | 'httpConnectionFailed'
  | 'responseStreamConnectionFailed'
  | 'responseStreamDisconnected'
  | 'responseTooManyFailedAttempts'
  | 'badRequest'
  | 'unauthorized'
  | 'apiKeyMissing'
  | 'internalServerError'
  | 'other';

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly httpStatus: number | null = null,
    /** More from the provider (its error body, trimmed), never containing credentials. */
    readonly details: string | null = null,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/**
 * Whether a value is a ModelError. The providers are bundled apart from the core, so each side has
 * its own copy of the class and `instanceof` cannot tell.
 */
export function isModelError(value: unknown): value is ModelError {
  const v = value as ModelError | null;
  return v instanceof Error && v.name === 'ModelError' && typeof v.kind === 'string';
}

export interface ModelClient {
  /**
   * Streams one model response. Aborting the signal ends the iteration promptly with an
   * AbortError; a stream that ends without the provider's completion event throws
   * ModelError('responseStreamDisconnected') after the retries are spent.
   */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent>;
  /** Model ids the provider's models endpoint lists. */
  listModels(signal: AbortSignal): Promise<string[]>;
}

/** Builds a client for a provider and an API key (null when the provider needs none). */
export type ModelClientFactory = (provider: ProviderConfig, apiKey: string | null) => ModelClient;
