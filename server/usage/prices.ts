// The price table the usage estimate uses, from config.toml:
//
//   [usage.prices."gpt-5"]
//   input = 1.25          # US dollars per million input tokens that were not cached
//   cached_input = 0.125  # per million cached input tokens (default: input)
//   cache_write = 1.25    # per million tokens written to a prompt cache (default: input)
//   output = 10.0         # per million output tokens, reasoning included
//
// Threadline ships no prices: providers change them, and a stale default would make every
// estimate silently wrong. A model without an entry is shown as "no price set". An entry with a
// missing or negative price is named in the log and left out, so the rest of the table still counts.
import type { Logger } from '../log';
import type { TokenUsage } from '../providers/types';

/** US dollars per million tokens. */
export interface Price {
  input: number;
  cachedInput: number;
  cacheWrite: number;
  output: number;
}

export type PriceTable = ReadonlyMap<string, Price>;

/** The config key the table lives under, for messages and the usage view's link. */
export const PRICES_KEY = 'usage.prices';

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPrice = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The table under `usage.prices` of a merged config. */
export function pricesFrom(config: Record<string, unknown>, log: Logger): PriceTable {
  const usage = config.usage;
  const prices = isTable(usage) ? usage.prices : undefined;
  const table = new Map<string, Price>();
  if (prices === undefined) return table;
  if (!isTable(prices)) {
    log.warn(`config.toml: ${PRICES_KEY} must be a table of models; ignoring it`);
    return table;
  }
  for (const [model, entry] of Object.entries(prices)) {
    const where = `${PRICES_KEY}."${model}"`;
    if (!isTable(entry) || !isPrice(entry.input) || !isPrice(entry.output)) {
      log.warn(`config.toml: ${where} needs input and output prices (dollars per million tokens, 0 or more)`);
      continue;
    }
    const optional = (key: string): number | undefined => {
      if (entry[key] === undefined) return undefined;
      if (isPrice(entry[key])) return entry[key];
      log.warn(`config.toml: ${where}.${key} must be a number of dollars, 0 or more; using the input price`);
      return undefined;
    };
    table.set(model, {
      input: entry.input,
      output: entry.output,
      cachedInput: optional('cached_input') ?? entry.input,
      cacheWrite: optional('cache_write') ?? entry.input,
    });
  }
  return table;
}

/** What is wrong with a `[usage]` table about to be written (config/value/write), or null. */
export function usageTableProblem(usage: unknown): string | null {
  if (!isTable(usage)) return `usage must be a table (with ${PRICES_KEY})`;
  const problems: string[] = [];
  const note = (message: string) => problems.push(message.replace(/^config\.toml: /, ''));
  pricesFrom({ usage }, { error: note, warn: note, info: () => {}, debug: () => {}, trace: () => {} });
  return problems[0] ?? null;
}

/**
 * What tokens cost at a price, in millionths of a dollar. A dollar per million tokens is a
 * millionth of a dollar per token, so each count is simply multiplied by its price.
 */
export function costMicros(tokens: TokenUsage, price: Price): number {
  const fresh = Math.max(0, tokens.inputTokens - tokens.cachedInputTokens - tokens.cacheWriteInputTokens);
  return Math.round(
    fresh * price.input +
      tokens.cachedInputTokens * price.cachedInput +
      tokens.cacheWriteInputTokens * price.cacheWrite +
      tokens.outputTokens * price.output,
  );
}
