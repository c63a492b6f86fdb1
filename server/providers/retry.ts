// Runs a wire's stream with our retry policy: failed requests are retried up to
// request_max_retries, cut or idle streams up to stream_max_retries, both with exponential backoff
// and full jitter. The caller's abort wins over everything, at once.
import { classify, disconnected, WireError } from './errors';
import type { ModelEvent, ProviderConfig } from './types';

const BASE_DELAY_MS = 200;
const MAX_DELAY_MS = 10_000;

/** Full jitter: anywhere from 0 to the exponential ceiling, so many clients never retry in step. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

export type Attempt = (signal: AbortSignal, opened: () => void) => AsyncIterable<ModelEvent>;

export async function* withRetries(
  provider: ProviderConfig,
  attempt: Attempt,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  let requestRetries = 0;
  let streamRetries = 0;
  for (;;) {
    const run = new AbortController();
    const stopRun = () => run.abort(signal.reason);
    signal.addEventListener('abort', stopRun, { once: true });
    // Once the provider has answered, a failure is a broken stream, not a failed request.
    let streaming = false;
    try {
      for await (const event of idleGuard(
        attempt(run.signal, () => (streaming = true)),
        provider,
        run,
      )) {
        yield event;
        if (event.type === 'completed') return;
      }
      throw disconnected(provider.name, 'the stream ended before the response was complete');
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      const failure = run.signal.aborted
        ? disconnected(provider.name, `no data for ${provider.streamIdleTimeoutMs} ms`)
        : streaming && !(error instanceof WireError)
          ? disconnected(provider.name, `the stream broke off (${(error as Error).message})`)
          : classify(provider.name, error);
      const isStream = streaming || failure.kind === 'responseStreamDisconnected';
      const used = isStream ? ++streamRetries : ++requestRetries;
      const allowed = isStream ? provider.streamMaxRetries : provider.requestMaxRetries;
      if (!failure.retryable || used > allowed) throw exhausted(failure, used > 1);
      const delayMs = retryAfter(error) ?? backoffDelay(used);
      yield { type: 'retrying', attempt: used, delayMs, error: failure };
      await sleep(delayMs, signal);
    } finally {
      signal.removeEventListener('abort', stopRun);
    }
  }
}

/** What to report when retrying stops: a server that kept failing says so, with its last status. */
function exhausted(failure: WireError, retried: boolean): WireError {
  if (!retried || failure.kind === 'responseStreamDisconnected' || failure.kind === 'httpConnectionFailed')
    return failure;
  return new WireError(
    'responseTooManyFailedAttempts',
    `${failure.message} (gave up after retrying)`,
    false,
    failure.httpStatus,
    failure.details,
  );
}

/**
 * Ends the attempt (by aborting it) when no event arrives for the provider's idle timeout. One
 * timer checks the time of the last event, rather than a timer re-armed on each of thousands.
 */
async function* idleGuard(events: AsyncIterable<ModelEvent>, provider: ProviderConfig, run: AbortController) {
  const limit = provider.streamIdleTimeoutMs;
  let last = Date.now();
  let timer: NodeJS.Timeout;
  const check = () => {
    const quiet = Date.now() - last;
    if (quiet >= limit) run.abort(new Error('idle'));
    else timer = setTimeout(check, limit - quiet);
  };
  timer = setTimeout(check, limit);
  try {
    for await (const event of events) {
      last = Date.now();
      yield event;
    }
  } finally {
    clearTimeout(timer);
  }
}

function retryAfter(error: unknown): number | null {
  const headers = (error as { headers?: unknown }).headers;
  const get = (name: string): string | null => {
    if (!headers) return null;
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
    return ((headers as Record<string, string>)[name] as string | undefined) ?? null;
  };
  const ms = Number(get('retry-after-ms'));
  if (ms > 0) return Math.min(ms, MAX_DELAY_MS);
  const seconds = Number(get('retry-after'));
  return seconds > 0 ? Math.min(seconds * 1000, MAX_DELAY_MS) : null;
}

export function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
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
