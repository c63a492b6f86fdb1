// account/usage/read: token usage from the threads' rollouts (server/usage). The reference's shape,
// plus Threadline's own breakdown (per day, model and thread, with estimated costs from the price
// table in config.toml) for clients that opted into experimentalApi and ask for it.
import { Type, type Static } from '@sinclair/typebox';
import { Experimental, Nullable, Opt, Params, Shape } from './schema';

const Count = Type.Integer({ minimum: 0 });
const Micros = Type.Integer({ minimum: 0, description: 'Millionths of a US dollar' });

export const AccountUsageReadParams = Params({
  /** Usage of this thread instead of every thread's. */
  threadId: Opt(Type.String({ minLength: 1 })),
  /** Threadline's own: add `breakdown`. */
  breakdown: Type.Optional(Experimental(Nullable(Type.Boolean()))),
  /** Threadline's own: how many threads `breakdown.threads` lists, most tokens first (default 50). */
  threadLimit: Type.Optional(Experimental(Nullable(Type.Integer({ minimum: 1, maximum: 1000 })))),
});

export const UsageSummary = Type.Object({
  lifetimeTokens: Opt(Count),
  peakDailyTokens: Opt(Count),
  currentStreakDays: Opt(Count),
  longestStreakDays: Opt(Count),
  longestRunningTurnSec: Opt(Count),
});

const ThreadUsageGroup = Type.Object({
  model: Opt(Type.String()),
  reasoningEffort: Opt(Type.String()),
  /** The reference's service tier; Threadline does not choose one. */
  speed: Opt(Type.String()),
  inputTokens: Opt(Count),
  cachedInputTokens: Opt(Count),
  netNewInputTokens: Opt(Count),
  outputTokens: Opt(Count),
  totalTokens: Opt(Count),
  /** ChatGPT credits: Threadline signs in with API keys only and spends none. */
  estimatedUsageCreditsMicros: Count,
});

const ThreadUsage = Type.Object({
  threadId: Type.String(),
  groups: Type.Array(ThreadUsageGroup),
  estimatedUsageCreditsMicros: Count,
  /** From the price table; null when no model of the thread has a price. */
  estimatedUsageUsdMicros: Opt(Micros),
  /** What the provider billed: never known here. */
  nativeUsageUsdMicros: Opt(Micros),
});

export const UsageTokens = Type.Object({
  inputTokens: Count,
  cachedInputTokens: Count,
  cacheWriteInputTokens: Count,
  outputTokens: Count,
  reasoningOutputTokens: Count,
  totalTokens: Count,
});

/** The estimate of some tokens: null when none of them has a price; unpricedTokens had none. */
const Estimate = {
  tokens: UsageTokens,
  estimatedUsdMicros: Nullable(Micros),
  unpricedTokens: Count,
};

export const UsageBreakdown = Type.Object({
  days: Type.Array(Type.Object({ date: Type.String(), ...Estimate })),
  models: Type.Array(Type.Object({ model: Type.String(), priced: Type.Boolean(), ...Estimate })),
  threads: Type.Array(
    Type.Object({
      threadId: Type.String(),
      title: Type.String(),
      lastUsedAt: Nullable(Type.Integer({ description: 'Unix seconds' })),
      ...Estimate,
    }),
  ),
  /** How many threads used tokens, of which `threads` lists the first threadLimit. */
  threadCount: Count,
  /** Today, as the days are counted (the server's local date). */
  today: Type.String(),
  /** The config.toml key of the price table. */
  pricesKey: Type.String(),
});
export type UsageBreakdown = Static<typeof UsageBreakdown>;

export const AccountUsageReadResponse = Shape({
  summary: UsageSummary,
  dailyUsageBuckets: Opt(Type.Array(Type.Object({ startDate: Type.String(), tokens: Count }))),
  threadUsage: Opt(ThreadUsage),
  breakdown: Type.Optional(Experimental(UsageBreakdown)),
});
export type AccountUsageReadResponse = Static<typeof AccountUsageReadResponse>;
