import { strict as assert } from 'node:assert';
import {
  PromptLedger,
  type LedgerChange,
  type LedgerPrompt,
} from '../../../../extension/approvals/promptLedger';

const prompt = (key: string, threadId = 't1', turnId = 'u1'): LedgerPrompt => ({ key, threadId, turnId });

function ledger() {
  const changes: LedgerChange<LedgerPrompt>[] = [];
  return { book: new PromptLedger<LedgerPrompt>((change) => changes.push(change)), changes };
}

describe('the prompt ledger', () => {
  it('lists waiting prompts oldest first, of all threads or of one', () => {
    const { book } = ledger();
    void book.add(prompt('1', 'a'));
    void book.add(prompt('2', 'b'));
    void book.add(prompt('3', 'a'));
    assert.deepEqual(
      book.list().map((p) => p.key),
      ['1', '2', '3'],
    );
    assert.deepEqual(
      book.list('a').map((p) => p.key),
      ['1', '3'],
    );
    assert.equal(book.get('2')?.threadId, 'b');
    assert.equal(book.get('9'), undefined);
  });

  it('takes the first answer only, resolves the asker with it and reports the change once', async () => {
    const { book, changes } = ledger();
    const p = prompt('7');
    const outcome = book.add(p);
    assert.equal(book.settle('7', { answered: { decision: 'accept' } }), true);
    assert.equal(book.settle('7', { answered: { decision: 'decline' } }), false);
    assert.equal(book.settle('7', { resolvedElsewhere: true }), false);
    assert.deepEqual(await outcome, { answered: { decision: 'accept' } });
    assert.deepEqual(changes, [
      { added: p },
      { settled: { prompt: p, outcome: { answered: { decision: 'accept' } } } },
    ]);
    assert.deepEqual(book.list(), []);
  });

  it('ends only the prompts of a finished turn, and every prompt when the server goes', async () => {
    const { book } = ledger();
    const first = book.add(prompt('1', 'a', 'turn-1'));
    const other = book.add(prompt('2', 'a', 'turn-2'));
    const elsewhere = book.add(prompt('3', 'b', 'turn-1'));
    book.settleTurn('a', 'turn-1', 'interrupted');
    assert.deepEqual(await first, { cancelled: 'interrupted' });
    assert.deepEqual(
      book.list().map((p) => p.key),
      ['2', '3'],
    );
    book.settleAll('the server restarted');
    assert.deepEqual(await other, { cancelled: 'the server restarted' });
    assert.deepEqual(await elsewhere, { cancelled: 'the server restarted' });
    assert.deepEqual(book.list(), []);
  });

  it('takes the same request asked again (a resumed codex thread) as the same prompt, answered once', async () => {
    const { book, changes } = ledger();
    const first = book.add(prompt('0'));
    const again = book.add(prompt('0'));
    assert.equal(changes.length, 1, 'added once');
    assert.equal(book.list().length, 1);
    assert.equal(book.settle('0', { answered: { decision: 'accept' } }), true);
    assert.deepEqual(await first, { answered: { decision: 'accept' } });
    assert.deepEqual(await again, { answered: { decision: 'accept' } });
  });

  it('refuses another prompt under a key that is already waiting', () => {
    const { book } = ledger();
    void book.add(prompt('1'));
    assert.throws(() => book.add(prompt('1', 't2')), /already waiting/);
    assert.throws(() => book.add(prompt('1', 't1', 'u2')), /already waiting/);
  });
});
