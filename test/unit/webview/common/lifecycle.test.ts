// The one Emitter, Disposable base and ref-count helper every listener-owning class uses, and the tree
// model's listeners, which once removed someone else's listener when unsubscribed twice.
import { strict as assert } from 'node:assert';
import { Emitter } from '../../../../webview/common/emitter';
import { Disposable, toDisposable } from '../../../../webview/common/lifecycle';
import { RefCounts } from '../../../../webview/common/refCounts';
import { ThreadTreeModel } from '../../../../extension/threads/threadTreeModel';

describe('Emitter', () => {
  it('unsubscribing twice removes only that listener, never another one', () => {
    const emitter = new Emitter<number>();
    const heard: string[] = [];
    const a = emitter.event((n) => heard.push(`a${n}`));
    emitter.event((n) => heard.push(`b${n}`));
    a.dispose();
    a.dispose();
    emitter.fire(1);
    assert.deepEqual(heard, ['b1']);
  });

  it('counts the same function subscribed twice as two listeners', () => {
    const emitter = new Emitter<void>();
    let calls = 0;
    const listener = () => calls++;
    const first = emitter.event(listener);
    emitter.event(listener);
    first.dispose();
    emitter.fire();
    assert.equal(calls, 1);
  });

  it('skips a listener removed during a fire and lets every other one hear a throwing one', () => {
    const emitter = new Emitter<void>();
    const heard: string[] = [];
    emitter.event(() => {
      heard.push('a');
      later.dispose();
      throw new Error('a failed');
    });
    const later = emitter.event(() => heard.push('later'));
    emitter.event(() => heard.push('c'));
    assert.throws(() => emitter.fire(), /a failed/);
    assert.deepEqual(heard, ['a', 'c']);
  });

  it('tells when its last listener left, binds thisArgs and collects into a disposables array', () => {
    let emptied = 0;
    const emitter = new Emitter<number>({ onDidRemoveLastListener: () => emptied++ });
    const bag: { dispose(): void }[] = [];
    const owner = { seen: 0 };
    emitter.event(
      function (this: typeof owner, n: number) {
        this.seen += n;
      },
      owner,
      bag,
    );
    emitter.fire(2);
    assert.equal(owner.seen, 2);
    assert.equal(bag.length, 1);
    bag[0].dispose();
    bag[0].dispose();
    assert.equal(emptied, 1);
    emitter.dispose();
    emitter.event(() => assert.fail('a disposed emitter takes no listeners'));
    emitter.fire(3);
  });
});

describe('Disposable', () => {
  class Owner extends Disposable {
    add(d: { dispose(): void }) {
      return this._register(d);
    }
  }

  it('disposes what it registered once, in order, even when one of them throws', () => {
    const order: string[] = [];
    const owner = new Owner();
    owner.add(toDisposable(() => order.push('first')));
    owner.add({
      dispose: () => {
        order.push('second');
        throw new Error('second failed');
      },
    });
    owner.add(toDisposable(() => order.push('third')));
    assert.throws(() => owner.dispose(), /second failed/);
    owner.dispose();
    assert.deepEqual(order, ['first', 'second', 'third']);
  });

  it('disposes at once what is registered after it was disposed', () => {
    const owner = new Owner();
    owner.dispose();
    let disposed = false;
    owner.add(toDisposable(() => (disposed = true)));
    assert.ok(disposed);
  });
});

describe('RefCounts', () => {
  it('releases a key when its last keeper lets go, however often each keeper disposes', () => {
    const released: string[] = [];
    const counts = new RefCounts<string>((key) => released.push(key));
    const a = counts.keep('t1');
    const b = counts.keep('t1');
    a.dispose();
    a.dispose();
    assert.ok(counts.has('t1'), 'one keeper remains');
    assert.deepEqual(released, []);
    b.dispose();
    assert.ok(!counts.has('t1'));
    assert.deepEqual(released, ['t1']);
    assert.deepEqual(counts.keys(), []);
  });
});

describe('the tree model’s change listeners', () => {
  it('unsubscribing one twice leaves the others subscribed', () => {
    const source = {
      list: () => Promise.reject(new Error('not listed in this test')),
      read: () => Promise.reject(new Error('not read in this test')),
    };
    const model = new ThreadTreeModel(source, { scope: () => undefined });
    const heard: string[] = [];
    const first = model.onDidChange(() => heard.push('first'));
    model.onDidChange(() => heard.push('second'));
    first.dispose();
    first.dispose();
    model.reset();
    assert.deepEqual(heard, ['second']);
  });
});
