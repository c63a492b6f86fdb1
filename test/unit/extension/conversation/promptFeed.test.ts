// One conversation view's share of the pending prompts, over the real ledger the registry keeps: the
// shown thread's list after each change (an outcome before the list that no longer has it), nothing
// of other threads, answers routed once, stale ones dropped, and the thread marked visible only while
// the view is.
import { strict as assert } from 'node:assert';
import {
  PromptLedger,
  type LedgerChange,
  type PromptOutcome,
} from '../../../../extension/approvals/promptLedger';
import type { PendingPrompt } from '../../../../extension/approvals/pendingApprovals';
import { PromptFeed, type PromptRegistry } from '../../../../extension/conversation/promptFeed';
import type { HostMessage, PromptResult } from '../../../../webview/messages';

const command = (key: string, threadId: string): PendingPrompt => ({
  key,
  kind: 'commandExecution',
  threadId,
  turnId: 'turn-1',
  itemId: `item-${key}`,
  receivedAt: Number(key),
  params: { threadId, turnId: 'turn-1', itemId: `item-${key}`, startedAtMs: 1, command: 'make' },
});

/** The registry's surface over a real ledger: what PendingApprovals adds is the server wiring. */
function registry() {
  const listeners: ((change: LedgerChange<PendingPrompt>) => void)[] = [];
  const ledger = new PromptLedger<PendingPrompt>((change) => listeners.forEach((l) => l(change)));
  const visible: string[] = [];
  const outcomes = new Map<string, Promise<PromptOutcome>>();
  const api: PromptRegistry = {
    onDidChange: (listener: (change: LedgerChange<PendingPrompt>) => void) => {
      listeners.push(listener);
      return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
    },
    list: (threadId?: string) => ledger.list(threadId),
    get: (key: string) => ledger.get(key),
    answer: (key: string, result: PromptResult) => ledger.settle(key, { answered: result }),
    markVisible: (threadId: string) => {
      visible.push(threadId);
      return { dispose: () => visible.splice(visible.indexOf(threadId), 1) };
    },
  } as unknown as PromptRegistry;
  const ask = (prompt: PendingPrompt) => outcomes.set(prompt.key, ledger.add(prompt));
  return { api, ask, outcomes, visible, ledger };
}

describe('the prompt feed of a conversation view', () => {
  it('posts the shown thread’s prompts, an outcome before the list without it, nothing of other threads', () => {
    const { api, ask, ledger } = registry();
    const posted: HostMessage[] = [];
    const feed = new PromptFeed(api, (m) => posted.push(m));
    ask(command('1', 'a'));
    assert.equal(posted.length, 0, 'no thread shown yet');
    feed.show('a');
    ask(command('2', 'b'));
    ask(command('3', 'a'));
    ledger.settle('1', { cancelled: 'turn interrupted' });
    assert.deepEqual(
      posted.map((m) =>
        m.type === 'prompts'
          ? `prompts ${m.prompts.map((p) => p.key).join(',')}`
          : `${m.type} ${'key' in m ? m.key : ''}`,
      ),
      ['prompts 1', 'prompts 1,3', 'promptSettled 1', 'prompts 3'],
    );
    assert.deepEqual(posted[2], {
      type: 'promptSettled',
      threadId: 'a',
      key: '1',
      outcome: { cancelled: 'turn interrupted' },
    });
    feed.dispose();
    ask(command('4', 'a'));
    assert.equal(posted.length, 4, 'nothing after dispose');
  });

  it('answers once, only prompts of the shown thread', async () => {
    const { api, ask, outcomes } = registry();
    const feed = new PromptFeed(api, () => {});
    ask(command('1', 'a'));
    ask(command('2', 'b'));
    feed.show('a');
    feed.answer('2', { decision: 'accept' }); // another thread's: a stale message, dropped
    feed.answer('1', { decision: 'decline' });
    feed.answer('1', { decision: 'accept' }); // the second answer changes nothing
    assert.deepEqual(await outcomes.get('1'), { answered: { decision: 'decline' } });
    assert.equal(api.get('2')?.key, '2', 'still waiting');
    feed.dispose();
  });

  it('marks the shown thread visible only while the view is', () => {
    const { api, visible } = registry();
    const feed = new PromptFeed(api, () => {});
    feed.show('a');
    assert.deepEqual(visible, []);
    feed.setVisible(true);
    assert.deepEqual(visible, ['a']);
    feed.show('b');
    assert.deepEqual(visible, ['b']);
    feed.setVisible(false);
    assert.deepEqual(visible, []);
    feed.setVisible(true);
    feed.dispose();
    assert.deepEqual(visible, []);
  });
});
