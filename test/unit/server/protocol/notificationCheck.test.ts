// The one check notifications pass where they enter the extension and the webview: what it lets
// through is typed by its method, what it drops is everything a reader could trip over.
import { strict as assert } from 'node:assert';
import { checkNotification, notificationProblem } from '../../../../server/protocol/notificationCheck';
import { routeNotification, type NotificationHandlers } from '../../../../server/protocol/notificationRoutes';

const ref = { threadId: 't', turnId: 'u' };
const turn = (items: unknown[]) => ({
  id: 'u',
  items,
  status: 'completed',
  error: null,
  startedAt: null,
  completedAt: null,
  durationMs: null,
});

describe('checkNotification', () => {
  it('passes a well-formed notification, typed by its method', () => {
    const item = { type: 'agentMessage', id: 'a', text: 'hi' };
    const checked = checkNotification('item/started', { ...ref, item, startedAtMs: 1 });
    assert.deepEqual(checked, { method: 'item/started', params: { ...ref, item, startedAtMs: 1 } });
  });

  it('passes items of a type this build does not know, in notifications and inside turns', () => {
    const hologram = { type: 'hologram', id: 'h', beam: 3 };
    assert.ok(checkNotification('item/completed', { ...ref, item: hologram, completedAtMs: 1 }));
    assert.ok(checkNotification('turn/completed', { threadId: 't', turn: turn([hologram]) }));
  });

  it('drops known items that do not match their type, and unknown ones without an id', () => {
    const broken = { type: 'commandExecution', id: 'c' };
    assert.equal(checkNotification('item/started', { ...ref, item: broken, startedAtMs: 1 }), undefined);
    assert.equal(checkNotification('turn/completed', { threadId: 't', turn: turn([broken]) }), undefined);
    const nameless = { type: 'hologram' };
    assert.equal(checkNotification('item/started', { ...ref, item: nameless, startedAtMs: 1 }), undefined);
  });

  it('drops wrong field types, missing fields and params that are not objects', () => {
    const delta = { ...ref, itemId: 'a', delta: 'x' };
    assert.ok(checkNotification('item/agentMessage/delta', delta));
    assert.equal(checkNotification('item/agentMessage/delta', { ...delta, delta: 5 }), undefined);
    assert.equal(checkNotification('item/agentMessage/delta', { ...ref, delta: 'x' }), undefined);
    for (const params of [null, undefined, 'text', 42, [delta]])
      assert.equal(checkNotification('item/agentMessage/delta', params), undefined);
    assert.equal(checkNotification('thread/tokenUsage/updated', { ...ref, tokenUsage: 3 }), undefined);
  });

  it('drops methods it does not know, inherited property names included', () => {
    for (const method of ['future/thing', '__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      assert.equal(checkNotification(method, { threadId: 't' }), undefined, method);
    assert.match(notificationProblem('future/thing', {}), /unknown notification/);
  });

  it('says which field failed, for the log', () => {
    const problem = notificationProblem('item/agentMessage/delta', { ...ref, itemId: 'a', delta: 5 });
    assert.match(problem, /item\/agentMessage\/delta: \/delta/);
  });

  it('routes a checked notification to its method’s handler only', () => {
    const seen: string[] = [];
    const handlers: NotificationHandlers<string> = {
      'thread/name/updated': ({ threadName }) => `renamed ${threadName}`,
      'thread/archived': ({ threadId }) => `archived ${threadId}`,
    };
    const renamed = checkNotification('thread/name/updated', { threadId: 't', threadName: 'x' });
    const closed = checkNotification('thread/closed', { threadId: 't' });
    for (const n of [renamed, closed]) if (n) seen.push(routeNotification(handlers, n) ?? 'unrouted');
    assert.deepEqual(seen, ['renamed x', 'unrouted']);
  });
});
