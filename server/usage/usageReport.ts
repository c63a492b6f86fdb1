// The answer to account/usage/read from the rollouts' usage (rolloutUsage.ts) and the price table:
// the reference's summary and daily buckets, a thread's groups, and Threadline's breakdown. Pure,
// so it is tested without a server.
import type { AccountUsageReadResponse, UsageBreakdown } from '../protocol/usageMethods';
import type { TokenUsage } from '../providers/types';
import { costMicros, PRICES_KEY, type PriceTable } from './prices';
import { addTokens, noTokens } from '../providers/tokenUsage';
import type { FileUsage, UsageBucket } from './rolloutUsage';

export interface ReportOptions {
  /** Today's date as the buckets count days (YYYY-MM-DD). */
  today: string;
  /** Only this thread's usage (the file list is then that thread's alone). */
  threadId: string | null;
  /** Add Threadline's breakdown, listing at most threadLimit threads. */
  breakdown: boolean;
  threadLimit: number;
  /** A thread's title for the breakdown. */
  titleOf: (threadId: string) => string;
}

/** Tokens with their estimate, summed bucket by bucket so each is priced at its own model's price. */
class Tally {
  readonly tokens = noTokens();
  private micros = 0;
  private priced = false;
  unpricedTokens = 0;

  constructor(private readonly prices: PriceTable) {}

  add(bucket: UsageBucket): void {
    addTokens(this.tokens, bucket.tokens);
    const price = this.prices.get(bucket.model);
    if (price) {
      this.micros += costMicros(bucket.tokens, price);
      this.priced = true;
    } else this.unpricedTokens += bucket.tokens.totalTokens;
  }

  get estimatedUsdMicros(): number | null {
    return this.priced ? this.micros : null;
  }

  estimate() {
    return {
      tokens: { ...this.tokens },
      estimatedUsdMicros: this.estimatedUsdMicros,
      unpricedTokens: this.unpricedTokens,
    };
  }
}

function tallyBy<K>(
  files: readonly FileUsage[],
  prices: PriceTable,
  key: (f: FileUsage, b: UsageBucket) => K,
) {
  const tallies = new Map<K, Tally>();
  for (const file of files)
    for (const bucket of file.buckets) {
      const k = key(file, bucket);
      let tally = tallies.get(k);
      if (!tally) tallies.set(k, (tally = new Tally(prices)));
      tally.add(bucket);
    }
  return tallies;
}

const DAY_MS = 86_400_000;
/** Days since the epoch of a YYYY-MM-DD date, so consecutive dates differ by one. */
const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/** The longest run of consecutive days, and the run that ends today or yesterday. */
export function streaks(dates: readonly string[], today: string): { longest: number; current: number } {
  const days = [...new Set(dates.map(dayNumber))].sort((a, b) => a - b);
  let longest = 0;
  let run = 0;
  days.forEach((day, i) => {
    run = i > 0 && day === days[i - 1]! + 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
  });
  const last = days[days.length - 1];
  const current = last !== undefined && dayNumber(today) - last <= 1 ? run : 0;
  return { longest, current };
}

export function usageReport(
  files: readonly FileUsage[],
  prices: PriceTable,
  options: ReportOptions,
): AccountUsageReadResponse {
  const byDay = tallyBy(files, prices, (_, b) => b.day);
  const days = [...byDay.keys()].sort();
  const daily = days.map((date) => ({ startDate: date, tokens: byDay.get(date)!.tokens.totalTokens }));
  const { longest, current } = streaks(days, options.today);
  const turns = files.flatMap((f) => (f.longestTurnMs === null ? [] : [f.longestTurnMs]));
  const response: AccountUsageReadResponse = {
    summary: {
      lifetimeTokens: daily.reduce((sum, d) => sum + d.tokens, 0),
      peakDailyTokens: daily.length ? Math.max(...daily.map((d) => d.tokens)) : null,
      currentStreakDays: current,
      longestStreakDays: longest,
      longestRunningTurnSec: turns.length ? Math.floor(Math.max(...turns) / 1000) : null,
    },
    dailyUsageBuckets: daily,
    threadUsage: options.threadId === null ? null : threadUsage(options.threadId, files, prices),
  };
  if (options.breakdown) response.breakdown = breakdown(files, prices, byDay, days, options);
  return response;
}

function threadUsage(threadId: string, files: readonly FileUsage[], prices: PriceTable) {
  const groups = tallyBy(files, prices, (_, b) => JSON.stringify([b.model, b.effort]));
  const total = tallyBy(files, prices, () => 'all').get('all');
  return {
    threadId,
    groups: [...groups].map(([key, tally]) => {
      const [model, effort] = JSON.parse(key) as [string, string | null];
      const t: TokenUsage = tally.tokens;
      return {
        model,
        reasoningEffort: effort,
        speed: null,
        inputTokens: t.inputTokens,
        cachedInputTokens: t.cachedInputTokens,
        netNewInputTokens: Math.max(0, t.inputTokens - t.cachedInputTokens),
        outputTokens: t.outputTokens,
        totalTokens: t.totalTokens,
        estimatedUsageCreditsMicros: 0,
      };
    }),
    estimatedUsageCreditsMicros: 0,
    estimatedUsageUsdMicros: total?.estimatedUsdMicros ?? null,
    nativeUsageUsdMicros: null,
  };
}

function breakdown(
  files: readonly FileUsage[],
  prices: PriceTable,
  byDay: Map<string, Tally>,
  days: string[],
  options: ReportOptions,
): UsageBreakdown {
  const byModel = tallyBy(files, prices, (_, b) => b.model);
  const byThread = tallyBy(files, prices, (f) => f.threadId);
  const lastUsed = new Map(files.map((f) => [f.threadId, f.lastUsedMs]));
  const mostTokens = <T extends { tokens: TokenUsage }>(a: T, b: T) =>
    b.tokens.totalTokens - a.tokens.totalTokens;
  return {
    days: days.map((date) => ({ date, ...byDay.get(date)!.estimate() })).reverse(),
    models: [...byModel]
      .map(([model, tally]) => ({ model, priced: prices.has(model), ...tally.estimate() }))
      .sort(mostTokens),
    threads: [...byThread]
      .map(([threadId, tally]) => {
        const ms = lastUsed.get(threadId) ?? null;
        return {
          threadId,
          title: options.titleOf(threadId),
          lastUsedAt: ms === null ? null : Math.floor(ms / 1000),
          ...tally.estimate(),
        };
      })
      .sort(mostTokens)
      .slice(0, options.threadLimit),
    threadCount: byThread.size,
    today: options.today,
    pricesKey: PRICES_KEY,
  };
}
