// The store around the reducer: sequence numbers (duplicates, out of order, gaps → resync), one flush per
// frame, and subscriptions that fire only for what changed.
import * as assert from 'node:assert/strict';
import { ConversationStore } from '../../../webview/store/store';
import { agentMessage, deltas, n, snapshot, threadId, turn } from './conversationFixtures';

function harness() {
  const frames: (() => void)[] = [];
  const resyncs: string[] = [];
  const store = new ConversationStore({
    schedule: (f) => frames.push(f),
    requestResync: (id) => resyncs.push(id),
  });
  const frame = () => frames.splice(0).forEach((f) => f());
  store.receive({
    type: 'snapshot',
    seq: 10,
    snapshot: snapshot([turn('t1', [agentMessage('a1', '')], 'inProgress')]),
    context: { kind: 'sidebar', restricted: false },
  });
  const text = () => (store.getState().items['t1/a1'] as { text: string }).text;
  return { store, frames, frame, resyncs, text };
}

const delta = (d: string) => n('item/agentMessage/delta', { turnId: 't1', itemId: 'a1', delta: d });

describe('webview store', () => {
  it('applies deltas once per frame, in sequence order', () => {
    const h = harness();
    for (const m of deltas(11, [delta('a'), delta('b'), delta('c')])) h.store.receive(m);
    assert.equal(h.text(), '', 'nothing applied before the frame');
    assert.equal(h.frames.length, 1, 'one frame scheduled for three deltas');
    h.frame();
    assert.equal(h.text(), 'abc');
  });

  it('drops duplicates and stale deltas', () => {
    const h = harness();
    const [a, b] = deltas(11, [delta('a'), delta('b')]);
    for (const m of [a, a, b, a, ...deltas(3, [delta('old')])]) h.store.receive(m);
    h.frame();
    h.store.receive(b);
    h.frame();
    assert.equal(h.text(), 'ab');
    assert.deepEqual(h.resyncs, []);
  });

  it('reorders deltas that arrive out of order within a frame', () => {
    const h = harness();
    const ms = deltas(11, [delta('1'), delta('2'), delta('3')]);
    for (const m of [ms[2], ms[0], ms[1]]) h.store.receive(m);
    h.frame();
    assert.equal(h.text(), '123');
  });

  it('asks for one resync on a gap, then continues from the snapshot', () => {
    const h = harness();
    const ms = deltas(11, [delta('1'), delta('2'), delta('3'), delta('4')]);
    for (const m of [ms[0], ms[2], ms[3]]) h.store.receive(m);
    h.frame();
    assert.equal(h.text(), '1');
    assert.deepEqual(h.resyncs, [threadId]);
    h.store.receive(deltas(15, [delta('5')])[0]);
    h.frame();
    assert.deepEqual(h.resyncs, [threadId], 'one resync while waiting');
    // The host's snapshot includes everything up to seq 13; 14 and 15 follow it.
    h.store.receive({
      type: 'snapshot',
      seq: 13,
      snapshot: snapshot([turn('t1', [agentMessage('a1', '123')], 'inProgress')]),
      context: { kind: 'sidebar', restricted: false },
    });
    assert.equal(h.text(), '12345');
    h.store.receive(deltas(16, [delta('6')])[0]);
    h.frame();
    assert.equal(h.text(), '123456');
  });

  it('ignores deltas of another thread', () => {
    const h = harness();
    h.store.receive({ type: 'delta', threadId: 'other', seq: 11, notification: delta('x') });
    h.frame();
    assert.equal(h.text(), '');
  });

  it('notifies an item subscriber only for its item, and view subscribers not on text deltas', () => {
    const h = harness();
    let itemCalls = 0;
    let otherItemCalls = 0;
    let viewCalls = 0;
    h.store.subscribeItem('t1/a1', () => itemCalls++);
    h.store.subscribeItem('t1/zz', () => otherItemCalls++);
    h.store.subscribe(() => viewCalls++);
    for (const m of deltas(11, [delta('a'), delta('b')])) h.store.receive(m);
    h.frame();
    assert.deepEqual([itemCalls, otherItemCalls, viewCalls], [1, 0, 0]);
    h.store.receive(
      deltas(13, [n('item/started', { turnId: 't1', item: agentMessage('a2', ''), startedAtMs: 1 })])[0],
    );
    h.frame();
    assert.deepEqual([itemCalls, otherItemCalls, viewCalls], [1, 0, 1]);
  });

  it('shows the empty state and prepends older turns of the shown thread only', () => {
    const h = harness();
    h.store.receive({ type: 'olderTurns', threadId: 'other', turns: [turn('t0')], hasOlderTurns: false });
    assert.deepEqual(h.store.getState().turnIds, ['t1']);
    h.store.receive({ type: 'olderTurns', threadId, turns: [turn('t0')], hasOlderTurns: true });
    assert.deepEqual(h.store.getState().turnIds, ['t0', 't1']);
    h.store.receive({
      type: 'empty',
      context: { kind: 'sidebar', restricted: false },
      reason: 'No thread selected',
    });
    assert.equal(h.store.getState().thread, null);
    assert.equal(h.store.emptyReason, 'No thread selected');
  });
});
