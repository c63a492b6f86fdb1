// Runs a wire's stream with our retry policy: failed requests are retried up to
// request_max_retries, cut or idle streams up to stream_max_retries, both with exponential backoff
// and full jitter. The caller's abort wins over everything, at once.
import { classify, disconnected, type FailureContext, WireError } from './errors';
import { IdleTimeout } from './idleTimeout';
import { readRateLimits } from './rateLimitHeaders';
import type { ModelEvent, ProviderConfig, RateLimits } from './types';
import type { Progress } from './wire';

const BASE_DELAY_MS = 200;
const MAX_DELAY_MS = 10_000;

/** Full jitter: anywhere from 0 to the exponential ceiling, so many clients never retry in step. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/** One try at a response: resolves once its stream can be iterated (the request may still be pending). */
export type Attempt = (signal: AbortSignal, progress: Progress) => Promise<AsyncIterable<ModelEvent>>;

export async function* withRetries(
  provider: ProviderConfig,
  ctx: FailureContext,
  attempt: Attempt,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  let requestRetries = 0;
  let streamRetries = 0;
  for (;;) {
    if (signal.aborted) throw abortError(signal);
    const run = new AbortController();
    const stopRun = () => run.abort(signal.reason);
    signal.addEventListener('abort', stopRun, { once: true });
    const idle = new IdleTimeout(provider.streamIdleTimeoutMs, () => run.abort(new Error('idle')));
    // Once the provider has answered, a failure is a broken stream, not a failed request.
    let streaming = false;
    let limits: RateLimits | null = null;
    const progress: Progress = {
      opened: (headers) => {
        streaming = true;
        idle.touch();
        limits = headers ? readRateLimits(headers) : null;
      },
      heard: idle.touch,
    };
    try {
      for await (const event of await attempt(run.signal, progress)) {
        if (limits) yield { type: 'rateLimits', limits };
        limits = null;
        yield event;
        if (event.type === 'completed') return;
      }
      throw disconnected(provider.name, 'the stream ended before the response was complete');
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      const failure = idle.expired
        ? disconnected(provider.name, `no data for ${provider.streamIdleTimeoutMs} ms`)
        : classify(ctx, error, streaming);
      if (!failure.retryable) throw failure;
      const isStream = streaming || failure.kind === 'responseStreamDisconnected';
      const used = isStream ? ++streamRetries : ++requestRetries;
      if (used > (isStream ? provider.streamMaxRetries : provider.requestMaxRetries)) throw gaveUp(failure);
      const delayMs = retryAfter(error) ?? backoffDelay(used);
      yield { type: 'retrying', attempt: used, delayMs, error: failure };
      await sleep(delayMs, signal);
    } finally {
      idle.stop();
      signal.removeEventListener('abort', stopRun);
    }
  }
}

/** What to report when retrying stops: a server that kept failing says so, with its last status. */
function gaveUp(failure: WireError): WireError {
  if (failure.kind === 'responseStreamDisconnected' || failure.kind === 'httpConnectionFailed')
    return failure;
  return new WireError(
    'responseTooManyFailedAttempts',
    `${failure.message} (gave up after retrying)`,
    false,
    failure.httpStatus,
    failure.details,
  );
}

/** The server's own `retry-after-ms` or `retry-after` (seconds), capped like our own delays. */
export function retryAfter(error: unknown): number | null {
  const headers = (error as { headers?: { get?: (name: string) => string | null } } | null)?.headers;
  if (typeof headers?.get !== 'function') return null;
  const ms = Number(headers.get('retry-after-ms'));
  if (ms > 0) return Math.min(ms, MAX_DELAY_MS);
  const seconds = Number(headers.get('retry-after'));
  return seconds > 0 ? Math.min(seconds * 1000, MAX_DELAY_MS) : null;
}

export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const error = new Error('The request was aborted.');
  error.name = 'AbortError';
  return error;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
