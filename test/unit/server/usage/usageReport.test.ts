// The pure core of account/usage/read: folding a rollout's usage records, the price table from a
// config table, costs, streaks, and the report's sums per day, model and thread.
import { strict as assert } from 'node:assert';
import { createLogger } from '../../../../server/log';
import type { TokenUsage } from '../../../../server/providers/types';
import { costMicros, pricesFrom } from '../../../../server/usage/prices';
import { foldUsage, localDay, type FileUsage, type UsageRecord } from '../../../../server/usage/rolloutUsage';
import { streaks, usageReport, type ReportOptions } from '../../../../server/usage/usageReport';

const tokens = (input: number, output: number, cached = 0, cacheWrite = 0): TokenUsage => ({
  inputTokens: input,
  cachedInputTokens: cached,
  cacheWriteInputTokens: cacheWrite,
  outputTokens: output,
  reasoningOutputTokens: 0,
  totalTokens: input + output,
});

const logLines: string[] = [];
const log = createLogger('warn', (line) => logLines.push(line));
const at = (date: string, hour = 12) => new Date(`${date}T${String(hour).padStart(2, '0')}:00:00`).getTime();

const options = (overrides: Partial<ReportOptions> = {}): ReportOptions => ({
  today: '2026-11-27',
  threadId: null,
  breakdown: true,
  threadLimit: 50,
  titleOf: (id) => `title of ${id}`,
  ...overrides,
});

const file = (threadId: string, buckets: [string, string, TokenUsage][]): FileUsage => ({
  threadId,
  buckets: buckets.map(([day, model, t]) => ({ day, model, effort: null, tokens: t })),
  longestTurnMs: null,
  lastUsedMs: null,
});

describe('usage core', () => {
  beforeEach(() => logLines.splice(0));

  it('folds token counts per local day, model and effort, and finds the longest turn', () => {
    const records: UsageRecord[] = [
      { type: 'turn_started', ts: at('2026-11-26', 10), turnId: 't1' },
      { type: 'skip' },
      { type: 'token_count', ts: at('2026-11-26', 10), model: 'm1', effort: 'high', usage: tokens(100, 10) },
      {
        type: 'token_count',
        ts: at('2026-11-26', 11),
        model: 'm1',
        effort: 'high',
        usage: tokens(50, 5, 20),
      },
      { type: 'turn_completed', ts: at('2026-11-26', 10) + 90_500, turnId: 't1' },
      { type: 'token_count', ts: at('2026-11-27', 9), model: 'm2', effort: null, usage: tokens(7, 3) },
      // An end without a start counts for nothing.
      { type: 'turn_completed', ts: at('2026-11-27', 23), turnId: 'never-started' },
    ];
    const usage = foldUsage('thread', records);
    assert.equal(usage.longestTurnMs, 90_500);
    assert.equal(usage.lastUsedMs, at('2026-11-27', 9));
    assert.deepEqual(
      usage.buckets.map((b) => [b.day, b.model, b.effort, b.tokens.totalTokens, b.tokens.cachedInputTokens]),
      [
        ['2026-11-26', 'm1', 'high', 165, 20],
        ['2026-11-27', 'm2', null, 10, 0],
      ],
    );
    assert.equal(localDay(at('2026-01-05', 0)), '2026-01-05', 'days are local, midnight included');
  });

  it('reads the price table, defaulting cached and cache-write prices, naming and skipping bad entries', () => {
    const prices = pricesFrom(
      {
        usage: {
          prices: {
            good: { input: 2, output: 8 },
            cached: { input: 2, output: 8, cached_input: 0.5, cache_write: 2.5 },
            'no-output': { input: 1 },
            negative: { input: -1, output: 1 },
            'bad-cached': { input: 1, output: 1, cached_input: 'cheap' },
          },
        },
      },
      log,
    );
    assert.deepEqual([...prices.keys()], ['good', 'cached', 'bad-cached']);
    assert.deepEqual(prices.get('good'), { input: 2, output: 8, cachedInput: 2, cacheWrite: 2 });
    assert.deepEqual(prices.get('bad-cached'), { input: 1, output: 1, cachedInput: 1, cacheWrite: 1 });
    assert.equal(logLines.length, 3);
    assert.match(logLines.join(''), /usage\.prices\."no-output" needs input and output prices/);
    assert.equal(pricesFrom({}, log).size, 0);
    assert.equal(pricesFrom({ usage: { prices: 'cheap' } }, log).size, 0);
    assert.match(logLines.at(-1)!, /usage\.prices must be a table/);

    // 1000 input of which 200 cached and 100 cache-written, 50 output: micro-dollars.
    const price = prices.get('cached')!;
    assert.equal(costMicros(tokens(1000, 50, 200, 100), price), 700 * 2 + 200 * 0.5 + 100 * 2.5 + 50 * 8);
  });

  it('counts the longest streak and the current one (ending today or yesterday)', () => {
    assert.deepEqual(streaks([], '2026-11-27'), { longest: 0, current: 0 });
    const days = ['2026-02-27', '2026-02-28', '2026-03-01', '2026-11-25', '2026-11-26'];
    assert.deepEqual(streaks(days, '2026-11-27'), { longest: 3, current: 2 });
    assert.deepEqual(streaks(days, '2026-11-28'), { longest: 3, current: 0 });
    assert.deepEqual(streaks(['2026-12-31', '2027-01-01'], '2027-01-01'), { longest: 2, current: 2 });
  });

  it('sums per day, model and thread, pricing each model at its own price and counting the unpriced', () => {
    const files = [
      file('a', [
        ['2026-11-26', 'priced', tokens(1000, 100)],
        ['2026-11-27', 'unpriced', tokens(300, 0)],
      ]),
      file('b', [['2026-11-27', 'priced', tokens(10, 0)]]),
      file('empty', []),
    ];
    const prices = pricesFrom({ usage: { prices: { priced: { input: 1, output: 10 } } } }, log);
    const report = usageReport(files, prices, options());
    assert.deepEqual(report.dailyUsageBuckets, [
      { startDate: '2026-11-26', tokens: 1100 },
      { startDate: '2026-11-27', tokens: 310 },
    ]);
    assert.deepEqual(report.summary, {
      lifetimeTokens: 1410,
      peakDailyTokens: 1100,
      currentStreakDays: 2,
      longestStreakDays: 2,
      longestRunningTurnSec: null,
    });
    const b = report.breakdown!;
    assert.deepEqual(
      b.days.map((d) => [d.date, d.estimatedUsdMicros, d.unpricedTokens]),
      [
        ['2026-11-27', 10, 300],
        ['2026-11-26', 2000, 0],
      ],
      'newest day first',
    );
    assert.deepEqual(
      b.models.map((m) => [m.model, m.priced, m.tokens.totalTokens, m.estimatedUsdMicros]),
      [
        ['priced', true, 1110, 2010],
        ['unpriced', false, 300, null],
      ],
    );
    assert.deepEqual(
      b.threads.map((t) => [t.threadId, t.title, t.estimatedUsdMicros, t.unpricedTokens]),
      [
        ['a', 'title of a', 2000, 300],
        ['b', 'title of b', 10, 0],
      ],
      'threads without tokens are not listed',
    );
    assert.equal(b.threadCount, 2);
    assert.equal(usageReport(files, prices, options({ threadLimit: 1 })).breakdown!.threads.length, 1);
    assert.equal(usageReport(files, prices, options({ breakdown: false })).breakdown, undefined);
  });

  it('answers an empty history honestly: zero tokens, no peak, no turn', () => {
    const report = usageReport([], new Map(), options({ breakdown: false }));
    assert.deepEqual(report, {
      summary: {
        lifetimeTokens: 0,
        peakDailyTokens: null,
        currentStreakDays: 0,
        longestStreakDays: 0,
        longestRunningTurnSec: null,
      },
      dailyUsageBuckets: [],
      threadUsage: null,
    });
  });
});
