// Exponential backoff with full jitter, for requests the server answered with -32001 (overloaded).
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  attempts: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 50, maxMs: 2_000, attempts: 6 };

/** The delay before retry number `attempt` (0-based): uniform in [0, min(max, base·2^attempt)]. */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random = Math.random,
): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

export const SERVER_OVERLOADED = -32001;

/** Runs `attempt` until it succeeds or fails with something other than "overloaded". */
export async function retryOverloaded<T>(
  attempt: () => Promise<T>,
  options: BackoffOptions = DEFAULT_BACKOFF,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== SERVER_OVERLOADED || i + 1 >= options.attempts) throw error;
      await sleep(backoffDelay(i, options));
    }
  }
}
