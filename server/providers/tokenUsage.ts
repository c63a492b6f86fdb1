// Token counts as every provider reports them (TokenUsage), in one place: none, a sum, and whether a
// stored value has the shape (a rollout's token_count record is read back from disk).
import type { TokenUsage } from './types';

const KEYS = [
  'inputTokens',
  'cachedInputTokens',
  'cacheWriteInputTokens',
  'outputTokens',
  'reasoningOutputTokens',
  'totalTokens',
] as const satisfies readonly (keyof TokenUsage)[];

export const noTokens = (): TokenUsage => ({
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
  totalTokens: 0,
});

/** Adds `more` into `into`, count by count. */
export function addTokens(into: TokenUsage, more: TokenUsage): void {
  for (const key of KEYS) into[key] += more[key];
}

export const isTokenUsage = (value: unknown): value is TokenUsage =>
  typeof value === 'object' &&
  value !== null &&
  KEYS.every((key) => {
    const count = (value as Record<string, unknown>)[key];
    return Number.isSafeInteger(count) && (count as number) >= 0;
  });
