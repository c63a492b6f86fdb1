// What each wire format module provides: one attempt at a streamed response (retries are
// retry.ts's job) and the provider's model list.
import type { HeaderGetter } from './rateLimitHeaders';
import type { ModelEvent, ModelRequest, ProviderConfig } from './types';

export interface Wire {
  stream(request: ModelRequest, signal: AbortSignal, progress: Progress): AsyncIterable<ModelEvent>;
  listModels(signal: AbortSignal): Promise<string[]>;
}

/** How an attempt tells the retry policy where it is. */
export interface Progress {
  /** The provider has answered and its stream begins: failures from now on are broken streams. */
  opened(headers?: HeaderGetter): void;
  /** A raw event arrived (whether or not it becomes a model event): the stream is not idle. */
  heard(): void;
}

export type WireFactory = (provider: ProviderConfig, apiKey: string | null) => Wire;

/** No client timeout of its own: the idle timeout and the caller's abort decide. */
export const NO_TIMEOUT_MS = 24 * 3600 * 1000;

/** Tracks which outputs of a response have started, so a delta for an unannounced one still opens it. */
export class Opened {
  private readonly keys = new Set<string>();

  /** True the first time a key is seen. */
  first(key: string): boolean {
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    return true;
  }
}

/** Splits a data: URL into its media type and base64 payload. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | null {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { mediaType: match[1]!, data: match[2]! } : null;
}

export const textOf = (output: string | { type: string; text?: string }[]) =>
  typeof output === 'string'
    ? output
    : output.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');

/** A freeform tool's raw input, from the one-string-argument function it travels as on other wires. */
export function unwrapFreeform(args: string): string {
  try {
    const value = JSON.parse(args) as { input?: unknown };
    return typeof value.input === 'string' ? value.input : args;
  } catch {
    return args;
  }
}
