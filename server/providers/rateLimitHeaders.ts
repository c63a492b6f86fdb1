// The rate limits a provider reports in its response headers: OpenAI's (and most compatible
// servers') x-ratelimit-{limit,remaining,reset}-{requests,tokens}, Anthropic's
// anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}. A provider that sends none has none.
import type { RateLimits, RateLimitWindow } from './types';

export interface HeaderGetter {
  get(name: string): string | null;
}

export function readRateLimits(headers: HeaderGetter, now = Date.now()): RateLimits | null {
  const openai = (kind: string) =>
    window(
      headers.get(`x-ratelimit-limit-${kind}`),
      headers.get(`x-ratelimit-remaining-${kind}`),
      durationSeconds(headers.get(`x-ratelimit-reset-${kind}`)),
      now,
    );
  const anthropic = (kind: string) =>
    window(
      headers.get(`anthropic-ratelimit-${kind}-limit`),
      headers.get(`anthropic-ratelimit-${kind}-remaining`),
      secondsUntil(headers.get(`anthropic-ratelimit-${kind}-reset`), now),
      now,
    );
  const requests = openai('requests') ?? anthropic('requests');
  const tokens = openai('tokens') ?? anthropic('tokens');
  return requests || tokens ? { requests, tokens } : null;
}

function window(
  limitText: string | null,
  remainingText: string | null,
  resetInSeconds: number | null,
  now: number,
): RateLimitWindow | null {
  const limit = Number(limitText);
  const remaining = Number(remainingText);
  if (!limitText || !remainingText || !(limit > 0) || !(remaining >= 0)) return null;
  return {
    limit,
    remaining: Math.min(remaining, limit),
    resetsAt: resetInSeconds === null ? null : Math.ceil(now / 1000 + resetInSeconds),
  };
}

/** OpenAI's reset durations: "1s", "6m0s", "20ms", "1h2m3.5s". */
export function durationSeconds(text: string | null): number | null {
  if (!text) return null;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== text.trim()) return null;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  return parts.reduce((sum, [, value, u]) => sum + Number(value) * unit[u!]!, 0);
}

/** Anthropic's resets are RFC 3339 times. */
function secondsUntil(text: string | null, now: number): number | null {
  const at = text ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000);
}
