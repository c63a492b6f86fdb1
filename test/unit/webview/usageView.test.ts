// The usage panel's view (jsdom): totals, per-model rows with "no price set" for a model without a
// price and the note that names the setting, a thread's link, the empty state and an error.
import * as assert from 'node:assert/strict';
import { act, createElement } from 'react';
import type * as ReactDomClient from 'react-dom/client';
import type { AccountUsageReadResponse } from '../../../server/protocol/usageMethods';
import type { UsageView as UsageViewType } from '../../../webview/usage/UsageView';
import type { UsageViewMessage } from '../../../webview/usage/usageMessages';
import { afterDom, useDom } from './dom';

const tokens = (input: number, output: number) => ({
  inputTokens: input,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: output,
  reasoningOutputTokens: 0,
  totalTokens: input + output,
});

const usage: AccountUsageReadResponse = {
  summary: {
    lifetimeTokens: 2_500_000,
    peakDailyTokens: 2_000_000,
    currentStreakDays: 2,
    longestStreakDays: 2,
    longestRunningTurnSec: 40,
  },
  dailyUsageBuckets: [],
  threadUsage: null,
  breakdown: {
    days: [
      {
        date: '2026-11-27',
        tokens: tokens(400_000, 100_000),
        estimatedUsdMicros: 1_800_000,
        unpricedTokens: 0,
      },
      {
        date: '2026-11-26',
        tokens: tokens(1_900_000, 100_000),
        estimatedUsdMicros: 4_800_000,
        unpricedTokens: 500,
      },
    ],
    models: [
      {
        model: 'gpt-5',
        priced: true,
        tokens: tokens(2_299_500, 200_000),
        estimatedUsdMicros: 6_600_000,
        unpricedTokens: 0,
      },
      {
        model: 'local-llama',
        priced: false,
        tokens: tokens(500, 0),
        estimatedUsdMicros: null,
        unpricedTokens: 500,
      },
    ],
    threads: [
      {
        threadId: 'thread-1',
        title: 'Port the parser',
        lastUsedAt: 1_800_000_000,
        tokens: tokens(2_000_000, 100_000),
        estimatedUsdMicros: 6_000_000,
        unpricedTokens: 0,
      },
    ],
    threadCount: 3,
    today: '2026-11-27',
    pricesKey: 'usage.prices',
  },
};

describe('the usage view (jsdom)', () => {
  useDom();
  let UsageView: typeof UsageViewType;
  let root: ReactDomClient.Root;
  let container: HTMLElement;
  const posted: UsageViewMessage[] = [];
  before(() => {
    UsageView = afterDom<{ UsageView: typeof UsageViewType }>('../../../webview/usage/UsageView').UsageView;
  });
  beforeEach(() => {
    posted.splice(0);
    container = document.createElement('div');
    document.body.append(container);
    const { createRoot } = afterDom<typeof ReactDomClient>('react-dom/client');
    root = createRoot(container);
  });
  afterEach(() => act(() => root.unmount()));

  const show = (props: Partial<Parameters<typeof UsageViewType>[0]>) =>
    act(() =>
      root.render(
        createElement(UsageView, {
          usage: null,
          error: null,
          loading: false,
          post: (m) => posted.push(m),
          ...props,
        }),
      ),
    );
  const rows = (table: string) =>
    [...container.querySelectorAll(`table[aria-label="${table}"] tbody tr`)].map((row) =>
      [...row.querySelectorAll('td')].map((cell) => cell.textContent),
    );

  it('shows totals and each model, day and thread with its estimate; an unpriced model says so and names the setting', async () => {
    await show({ usage });
    const total = (label: string) => container.querySelector(`[aria-label="${label}"]`)?.textContent;
    assert.equal(total('Today'), 'Today500,000$1.80');
    assert.equal(total('All time'), 'All time2,500,000$6.60 + unpriced');
    assert.equal(total('Threads'), 'Threads32-day streak');
    assert.deepEqual(rows('Usage by model'), [
      ['gpt-5', '2,299,500', '0', '200,000', '2,499,500', '$6.60'],
      ['local-llama', '500', '0', '0', '500', 'no price set'],
    ]);
    assert.deepEqual(
      rows('Usage by day').map((r) => [r[0], r[5]]),
      [
        ['2026-11-27', '$1.80'],
        ['2026-11-26', '$4.80 + unpriced'],
      ],
    );
    assert.equal(rows('Usage by thread')[0]![0], 'Port the parser');
    assert.match(
      container.textContent!,
      /No price set for local-llama\. Add \[usage\.prices\."local-llama"\]/,
    );
    assert.match(container.textContent!, /The 1 threads that used the most tokens, of 3\./);

    const link = [...container.querySelectorAll('button.tl-link')];
    await act(() => (link.find((b) => b.textContent === 'Port the parser') as HTMLElement).click());
    await act(() => (link.find((b) => b.textContent === 'edit prices') as HTMLElement).click());
    assert.deepEqual(posted, [{ type: 'openThread', threadId: 'thread-1' }, { type: 'editPrices' }]);
  });

  it('says when nothing was used yet, and shows an error as an alert', async () => {
    const empty = {
      ...usage,
      breakdown: { ...usage.breakdown!, days: [], models: [], threads: [], threadCount: 0 },
    };
    await show({ usage: empty });
    assert.match(container.textContent!, /No tokens recorded yet/);
    await show({ usage: null, error: 'Could not read usage: the server stopped' });
    assert.equal(
      container.querySelector('[role="alert"]')?.textContent,
      'Could not read usage: the server stopped',
    );
    assert.doesNotMatch(container.textContent!, /Reading usage/);
  });
});
