// The pure reducer over protocol notifications: every notification type it knows, and input it must survive.
import * as assert from 'node:assert/strict';
import { fromSnapshot, prependTurns, reduce } from '../../../webview/store/reducer';
import { itemKey, type ConversationState } from '../../../webview/store/state';
import { agentMessage, n, snapshot, turn, userMessage } from './conversationFixtures';

const apply = (state: ConversationState, ...ns: ReturnType<typeof n>[]) => ns.reduce(reduce, state);

describe('webview reducer', () => {
  const base = () =>
    fromSnapshot(snapshot([turn('t1', [userMessage('u1', 'hi'), agentMessage('a1', 'hello')])]));

  it('normalizes a snapshot into turns, items and rows', () => {
    const s = base();
    assert.deepEqual(s.turnIds, ['t1']);
    assert.deepEqual(s.turns.t1.itemKeys, ['t1/u1', 't1/a1']);
    assert.deepEqual(
      s.rows.map((r) => r.key),
      ['turn:t1', 't1/u1', 't1/a1'],
    );
    assert.equal((s.items['t1/a1'] as { text: string }).text, 'hello');
  });

  it('streams a turn: turn/started, item/started, deltas, item/completed, turn/completed', () => {
    const s = apply(
      base(),
      n('turn/started', { turn: turn('t2', [], 'inProgress') }),
      n('item/started', { turnId: 't2', item: agentMessage('a2', ''), startedAtMs: 1 }),
      n('item/agentMessage/delta', { turnId: 't2', itemId: 'a2', delta: 'Hel' }),
      n('item/agentMessage/delta', { turnId: 't2', itemId: 'a2', delta: 'lo' }),
    );
    assert.equal((s.items['t2/a2'] as { text: string }).text, 'Hello');
    assert.equal(s.turns.t2.status, 'inProgress');
    const done = apply(
      s,
      n('item/completed', { turnId: 't2', item: agentMessage('a2', 'Hello!'), completedAtMs: 2 }),
      n('turn/completed', { turn: { ...turn('t2'), durationMs: 1500 } }),
    );
    assert.equal((done.items['t2/a2'] as { text: string }).text, 'Hello!');
    assert.equal(done.turns.t2.status, 'completed');
    assert.equal(done.turns.t2.durationMs, 1500);
    assert.deepEqual(
      done.rows.map((r) => r.key),
      ['turn:t1', 't1/u1', 't1/a1', 'turn:t2', 't2/a2'],
    );
  });

  it("gives a failed turn's error its own row after the turn's items, only once it failed", () => {
    const error = { message: 'No API key', codexErrorInfo: 'apiKeyMissing' as const };
    const running = apply(
      base(),
      n('turn/started', { turn: turn('t2', [userMessage('u2', 'again')], 'inProgress') }),
      n('error', { turnId: 't2', error, willRetry: false }),
    );
    assert.deepEqual(
      running.rows.map((r) => r.key),
      ['turn:t1', 't1/u1', 't1/a1', 'turn:t2', 't2/u2'],
    );
    const failed = apply(running, n('turn/completed', { turn: { ...turn('t2', [], 'failed'), error } }));
    assert.deepEqual(
      failed.rows.map((r) => r.key),
      ['turn:t1', 't1/u1', 't1/a1', 'turn:t2', 't2/u2', 'turnError:t2'],
    );
    assert.deepEqual(failed.rows.at(-1), { kind: 'turnError', key: 'turnError:t2', turnId: 't2' });
    // From a snapshot too (a thread opened after its turn failed).
    const reopened = fromSnapshot(snapshot([{ ...turn('t1', [userMessage('u1', 'hi')], 'failed'), error }]));
    assert.deepEqual(
      reopened.rows.map((r) => r.key),
      ['turn:t1', 't1/u1', 'turnError:t1'],
    );
  });

  it('keeps unchanged records and the rows identical on a text delta', () => {
    const s = apply(base(), n('item/agentMessage/delta', { turnId: 't1', itemId: 'a1', delta: '!' }));
    const before = base();
    assert.equal(s.rows.length, before.rows.length);
    const again = reduce(s, n('item/agentMessage/delta', { turnId: 't1', itemId: 'a1', delta: '?' }));
    assert.equal(again.rows, s.rows);
    assert.equal(again.turns, s.turns);
    assert.equal(again.items['t1/u1'], s.items['t1/u1']);
    assert.notEqual(again.items['t1/a1'], s.items['t1/a1']);
  });

  it('streams reasoning summary parts and content', () => {
    const s = apply(
      base(),
      n('item/started', {
        turnId: 't1',
        item: { type: 'reasoning', id: 'r1', summary: [], content: [] },
        startedAtMs: 1,
      }),
      n('item/reasoning/summaryTextDelta', { turnId: 't1', itemId: 'r1', delta: 'Plan', summaryIndex: 0 }),
      n('item/reasoning/summaryPartAdded', { turnId: 't1', itemId: 'r1', summaryIndex: 1 }),
      n('item/reasoning/summaryTextDelta', { turnId: 't1', itemId: 'r1', delta: 'Act', summaryIndex: 1 }),
      n('item/reasoning/textDelta', { turnId: 't1', itemId: 'r1', delta: 'raw', contentIndex: 0 }),
    );
    assert.deepEqual(s.items[itemKey('t1', 'r1')], {
      type: 'reasoning',
      id: 'r1',
      summary: ['Plan', 'Act'],
      content: ['raw'],
    });
  });

  it('streams plan text, the turn plan, the turn diff and command output', () => {
    const command = {
      type: 'commandExecution',
      id: 'c1',
      command: 'ls',
      cwd: '/w',
      commandActions: [],
      status: 'inProgress',
    };
    const s = apply(
      base(),
      n('item/started', { turnId: 't1', item: { type: 'plan', id: 'p1', text: '' }, startedAtMs: 1 }),
      n('item/plan/delta', { turnId: 't1', itemId: 'p1', delta: '1. read' }),
      n('turn/plan/updated', {
        turnId: 't1',
        explanation: 'why',
        plan: [{ step: 'read', status: 'inProgress' }],
      }),
      n('turn/diff/updated', { turnId: 't1', diff: 'diff --git a/x b/x' }),
      n('item/started', { turnId: 't1', item: command, startedAtMs: 1 }),
      n('item/commandExecution/outputDelta', { turnId: 't1', itemId: 'c1', delta: 'a\n' }),
      n('item/commandExecution/outputDelta', { turnId: 't1', itemId: 'c1', delta: 'b\n' }),
    );
    assert.equal((s.items['t1/p1'] as { text: string }).text, '1. read');
    assert.deepEqual(s.turns.t1.plan, {
      explanation: 'why',
      steps: [{ step: 'read', status: 'inProgress' }],
    });
    assert.equal(s.turns.t1.diff, 'diff --git a/x b/x');
    assert.equal((s.items['t1/c1'] as unknown as { aggregatedOutput: string }).aggregatedOutput, 'a\nb\n');
  });

  it('updates file change patches and MCP progress', () => {
    const change = { type: 'fileChange', id: 'f1', status: 'inProgress', changes: [] };
    const changes = [{ path: 'a.ts', kind: { type: 'add' }, diff: '+x' }];
    const s = apply(
      base(),
      n('item/started', { turnId: 't1', item: change, startedAtMs: 1 }),
      n('item/fileChange/patchUpdated', { turnId: 't1', itemId: 'f1', changes }),
      n('item/mcpToolCall/progress', { turnId: 't1', itemId: 'm1', message: 'halfway' }),
    );
    assert.deepEqual((s.items['t1/f1'] as unknown as { changes: unknown }).changes, changes);
    assert.equal(s.progress['t1/m1'], 'halfway');
  });

  it('records token usage on the thread and the turn, and errors with and without retry', () => {
    const usage = {
      totalTokens: 10,
      inputTokens: 8,
      cachedInputTokens: 0,
      cacheWriteInputTokens: 0,
      outputTokens: 2,
      reasoningOutputTokens: 0,
    };
    const s = apply(
      base(),
      n('thread/tokenUsage/updated', {
        turnId: 't1',
        tokenUsage: { total: usage, last: usage, modelContextWindow: 1000 },
      }),
      n('error', { turnId: 't1', error: { message: 'busy' }, willRetry: true }),
    );
    assert.equal(s.tokenUsage?.modelContextWindow, 1000);
    assert.equal(s.turns.t1.usage?.totalTokens, 10);
    assert.equal(s.turns.t1.retrying, 'busy');
    const failed = reduce(
      s,
      n('error', {
        turnId: 't1',
        error: { message: 'gone', codexErrorInfo: 'unauthorized' },
        willRetry: false,
      }),
    );
    assert.deepEqual(failed.turns.t1.error, { message: 'gone', codexErrorInfo: 'unauthorized' });
    assert.equal(failed.turns.t1.retrying, null);
  });

  it('follows thread status, name and close', () => {
    const s = apply(
      base(),
      n('thread/status/changed', { status: { type: 'active', activeFlags: [] } }),
      n('thread/name/updated', { threadName: 'Renamed' }),
    );
    assert.deepEqual(s.thread?.status, { type: 'active', activeFlags: [] });
    assert.equal(s.thread?.name, 'Renamed');
    assert.deepEqual(reduce(s, n('thread/closed', {})).thread?.status, { type: 'notLoaded' });
  });

  it('treats a repeated item/started as one item, and an item before its turn as a new turn', () => {
    const s = apply(
      base(),
      n('item/started', { turnId: 't9', item: agentMessage('a9', ''), startedAtMs: 1 }),
      n('item/started', { turnId: 't9', item: agentMessage('a9', ''), startedAtMs: 1 }),
      n('item/agentMessage/delta', { turnId: 't9', itemId: 'x', delta: 'lost start' }),
    );
    assert.deepEqual(s.turns.t9.itemKeys, ['t9/a9', 't9/x']);
    assert.equal((s.items['t9/x'] as { text: string }).text, 'lost start');
    assert.deepEqual(s.turnIds, ['t1', 't9']);
  });

  // Malformed params never get this far: the host's server client checks every notification against
  // its method's schema and drops the ones that fail (test/server/serverClient.test.ts).
  it('ignores other threads and the methods it has no handler for', () => {
    const s = base();
    const other = n('item/agentMessage/delta', { threadId: 'other', turnId: 't1', itemId: 'a1', delta: 'x' });
    assert.equal(reduce(s, other), s);
    assert.equal(reduce(s, n('account/updated', { authMode: null })), s);
  });

  it('keeps an item of an unknown type for the generic card', () => {
    const s = reduce(
      base(),
      n('item/started', { turnId: 't1', item: { type: 'hologram', id: 'h1', beam: 3 }, startedAtMs: 1 }),
    );
    assert.deepEqual(s.items['t1/h1'], { type: 'hologram', id: 'h1', beam: 3 });
  });

  it("shows a hook's run while it runs; a quiet one leaves no row, one that blocked or spoke stays", () => {
    const run = (id: string, status: string, entries: { kind: string; text: string }[] = []) => ({
      id,
      eventName: 'preToolUse',
      handlerType: 'command',
      executionMode: 'sync',
      scope: 'turn',
      source: 'user',
      sourcePath: '/home/u/.threadline/config.toml',
      displayOrder: 0,
      status,
      statusMessage: null,
      startedAt: 1,
      completedAt: status === 'running' ? null : 2,
      durationMs: status === 'running' ? null : 40,
      entries,
    });
    const keys = (state: ConversationState) => state.rows.map((r) => r.key);
    const started = apply(
      base(),
      n('hook/started', { turnId: 't1', run: run('quiet', 'running') }),
      n('hook/started', { turnId: 't1', run: run('guard', 'running') }),
      n('hook/started', { turnId: null, run: run('session', 'running') }),
    );
    assert.deepEqual(keys(started), ['turn:t1', 't1/u1', 't1/a1', 't1/hook-quiet', 't1/hook-guard']);
    const blocked = run('guard', 'blocked', [{ kind: 'feedback', text: 'rm is not allowed here' }]);
    const ended = apply(
      started,
      n('hook/completed', { turnId: 't1', run: run('quiet', 'completed') }),
      n('hook/completed', { turnId: 't1', run: blocked }),
    );
    assert.deepEqual(keys(ended), ['turn:t1', 't1/u1', 't1/a1', 't1/hook-guard']);
    assert.deepEqual(ended.items['t1/hook-guard'], { type: 'hookRun', id: 'hook-guard', run: blocked });
    assert.equal('t1/hook-quiet' in ended.items, false);
  });

  it('prepends older turns once, before the shown ones', () => {
    const s = prependTurns(base(), [turn('t0', [userMessage('u0', 'first')]), turn('t1')], false);
    assert.deepEqual(s.turnIds, ['t0', 't1']);
    assert.equal(s.rows[0].key, 'turn:t0');
    assert.equal(s.hasOlderTurns, false);
    assert.deepEqual(s.turns.t1.itemKeys, ['t1/u1', 't1/a1']);
  });
});
