// The context meter in a jsdom page: how full the context is, and how much of the last request's
// input came from the provider's prompt cache, from thread/tokenUsage/updated.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import { deltas, n, snapshot, turn, userMessage } from './conversationFixtures';
import { useAppDom } from './dom';

const usage = (input: number, cached: number) => ({
  inputTokens: input,
  cachedInputTokens: cached,
  outputTokens: 100,
  reasoningOutputTokens: 0,
  totalTokens: input + 100,
});

describe('webview context meter (jsdom)', () => {
  const app = useAppDom();

  it('shows the cached share of the last request, and nothing about caching before any is cached', async () => {
    const page = new app.Page({ listModels: () => ({ models: [] }) });
    await page.render(createElement(app.App));
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', [userMessage('u1', 'hi')])]),
      context: { kind: 'sidebar', restricted: false },
    });
    const update = async (seq: number, input: number, cached: number) => {
      await page.receive(
        deltas(seq, [
          n('thread/tokenUsage/updated', {
            turnId: 't1',
            tokenUsage: {
              total: usage(input, cached),
              last: usage(input, cached),
              modelContextWindow: 200_000,
            },
          }),
        ])[0]!,
      );
      await page.frame();
    };

    await update(1, 19_900, 0);
    const meter = page.find('.tl-meter');
    assert.equal(meter.textContent, '10% of context used');
    assert.equal(
      meter.getAttribute('title'),
      '20000 of 200000 tokens\n0 of 19900 input tokens read from the prompt cache',
    );

    await update(2, 39_900, 36_000);
    assert.equal(page.find('.tl-meter').textContent, '20% of context used · 36k cached');
    assert.match(
      page.find('.tl-meter').getAttribute('title') ?? '',
      /36000 of 39900 input tokens read from the prompt cache/,
    );
    await page.unmount();
  });
});
