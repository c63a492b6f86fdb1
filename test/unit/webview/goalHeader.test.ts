// The thread's goal in the conversation's header, through the App as the webview mounts it: from the
// snapshot, then following thread/goal/updated and thread/goal/cleared; and `/goal` in the composer,
// which sets the goal with an objective and clears it without one.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import type { ThreadGoal } from '../../../server/protocol/threadGoal';
import type { HostMessage } from '../../../webview/messages';
import { deltas, n, snapshot, threadId, turn, userMessage } from './conversationFixtures';
import { useAppDom } from './dom';

const goal = (fields: Partial<ThreadGoal> = {}): ThreadGoal => ({
  threadId,
  objective: 'Port the CLI to Windows',
  status: 'active',
  tokenBudget: null,
  tokensUsed: 0,
  timeUsedSeconds: 0,
  createdAt: 1_700_000_000,
  updatedAt: 1_700_000_000,
  ...fields,
});

describe('webview goal in the header (jsdom)', () => {
  const app = useAppDom();

  async function open(initial: ThreadGoal | null) {
    const page = new app.Page({
      listModels: () => ({ models: [] }),
      checkSetup: () => ({ ready: true }),
      listPrompts: () => ({ prompts: [] }),
      setGoal: () => ({}),
    });
    await page.render(createElement(app.App));
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: { ...snapshot([turn('t1', [userMessage('u1', 'hi')])]), goal: initial },
      context: { kind: 'sidebar', restricted: false },
    } as HostMessage);
    return page;
  }
  const chip = (page: Awaited<ReturnType<typeof open>>) => page.all('header .tl-goal')[0];

  it('shows the goal from the snapshot, follows its updates, and goes when it is cleared', async () => {
    const page = await open(goal());
    assert.equal(chip(page)?.textContent, 'Port the CLI to Windows', 'an active goal shows no status');
    assert.equal(chip(page)?.getAttribute('title'), 'Goal (active): Port the CLI to Windows');

    for (const message of deltas(1, [
      n('thread/goal/updated', { turnId: null, goal: goal({ objective: 'Ship 2.0', status: 'paused' }) }),
    ]))
      await page.receive(message);
    await page.frame();
    assert.equal(chip(page)?.textContent, 'Ship 2.0(paused)');
    assert.equal(chip(page)?.getAttribute('data-goal-status'), 'paused');

    for (const message of deltas(2, [n('thread/goal/cleared', {})])) await page.receive(message);
    await page.frame();
    assert.equal(chip(page), undefined);
  });

  it('shows nothing without a goal (or from a server that keeps none)', async () => {
    const page = await open(null);
    assert.equal(chip(page), undefined);
    assert.ok(page.find('header .tl-title'), 'the header itself is there');
  });

  it('sets the goal with /goal and an objective, and clears it with /goal alone', async () => {
    const page = await open(null);
    await page.type('/goal Make the parser stream');
    await page.key({ key: 'Enter' });
    await page.type('/goal');
    await page.key({ key: 'Enter' });
    assert.deepEqual(page.requests('setGoal'), [
      { threadId, objective: 'Make the parser stream' },
      { threadId, objective: '' },
    ]);
    assert.deepEqual(
      page.posted.filter((m) => m.type === 'request' && m.name === 'startTurn'),
      [],
      'no message was sent to the model',
    );
  });
});
