import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Thread } from '../../server/protocol/thread';
import { tempDir, useServers } from '../support/serverProcess';
import { writeRollout } from '../support/rollouts';

const everySource = { sourceKinds: ['vscode', 'cli', 'appServer', 'exec', 'unknown'] };

describe('app-server over stdio: the thread lifecycle', () => {
  const start = useServers();

  it('starts a thread: response, thread/started after it, a rollout on disk, times in seconds', async () => {
    const server = await start();
    const before = Math.floor(Date.now() / 1000);
    const result = await server.call<{ thread: Thread; cwd: string }>('thread/start', { cwd: server.home });
    const { thread } = result;
    assert.equal(result.cwd, server.home);
    assert.equal(thread.status.type, 'idle');
    assert.equal(thread.source, 'vscode');
    assert.ok(
      thread.createdAt >= before - 1 && thread.createdAt <= Date.now() / 1000 + 1,
      'createdAt in seconds',
    );
    assert.ok(thread.path && existsSync(thread.path));
    assert.match(thread.path, /sessions\/\d{4}\/\d\d\/\d\d\/rollout-[\dT-]+-[0-9a-f-]{36}\.jsonl$/);
    const started = await server.notification('thread/started');
    assert.equal((started.params as { thread: Thread }).thread.id, thread.id);
    const responseIndex = server.received.findIndex(
      (m) => (m.result as { thread?: Thread })?.thread?.id === thread.id,
    );
    assert.ok(server.received.indexOf(started) > responseIndex, 'thread/started follows the response');
  });

  it('lists the threads of any client by default, also archived, keeping the client name as originator', async () => {
    const server = await start(undefined, 'some_other_client');
    const { thread } = await server.call<{ thread: Thread }>('thread/start', {});
    assert.equal(thread.source, 'vscode', 'interactive whoever the client is, as the reference server');
    assert.equal(thread.originator, 'some_other_client');
    const listed = (await server.call<{ data: Thread[] }>('thread/list')).data;
    assert.deepEqual(
      listed.map((t) => [t.id, t.originator]),
      [[thread.id, 'some_other_client']],
    );
    await server.call('thread/archive', { threadId: thread.id });
    assert.deepEqual((await server.call<{ data: Thread[] }>('thread/list')).data, []);
    const archived = await server.call<{ data: Thread[] }>('thread/list', { archived: true });
    assert.deepEqual(
      archived.data.map((t) => t.id),
      [thread.id],
    );
    // Kept across a restart: the originator is in the rollout, not only in memory.
    await server.stop();
    const again = await start(server.home, 'yet_another_client');
    const read = await again.call<{ thread: Thread }>('thread/read', { threadId: thread.id });
    assert.equal(read.thread.originator, 'some_other_client');
  });

  it('sorts by recency_at as by updated_at, and refuses section_position without a sectionId (the Codex TUI asks for both)', async () => {
    const server = await start();
    const first = (await server.call<{ thread: Thread }>('thread/start', {})).thread;
    const second = (await server.call<{ thread: Thread }>('thread/start', {})).thread;
    await new Promise((r) => setTimeout(r, 1100));
    await server.call('thread/name/set', { threadId: first.id, name: 'Touched last' });
    const ids = async (sortKey: string) =>
      (await server.call<{ data: Thread[] }>('thread/list', { sortKey })).data.map((t) => t.id);
    assert.deepEqual(await ids('recency_at'), [first.id, second.id]);
    assert.deepEqual(await ids('recency_at'), await ids('updated_at'));
    const refused = await server.request('thread/list', { sortKey: 'section_position' });
    assert.equal(refused.error?.code, -32602);
    assert.match(refused.error!.message, /section_position orders one section: give its sectionId/);
  });

  it('never writes an ephemeral thread, but reads it while loaded', async () => {
    const server = await start();
    const { thread } = await server.call<{ thread: Thread }>('thread/start', { ephemeral: true });
    assert.equal(thread.ephemeral, true);
    assert.equal(thread.path, null);
    assert.equal(existsSync(join(server.home, 'sessions')), false);
    assert.equal(
      (await server.call<{ thread: Thread }>('thread/read', { threadId: thread.id })).thread.id,
      thread.id,
    );
    assert.deepEqual((await server.call<{ data: Thread[] }>('thread/list', everySource)).data, []);
  });

  it('renames, archives and unarchives, with notifications and the file moved each way', async () => {
    const server = await start();
    const { thread } = await server.call<{ thread: Thread }>('thread/start', {});
    await server.call('thread/name/set', { threadId: thread.id, name: '  Fix the flaky test  ' });
    const renamed = await server.notification('thread/name/updated');
    assert.deepEqual(renamed.params, { threadId: thread.id, threadName: 'Fix the flaky test' });
    assert.equal(
      (await server.call<{ thread: Thread }>('thread/read', { threadId: thread.id })).thread.name,
      'Fix the flaky test',
    );

    assert.deepEqual(await server.call('thread/archive', { threadId: thread.id }), {});
    await server.notification('thread/archived', (p) => p.threadId === thread.id);
    assert.equal(existsSync(thread.path!), false);
    const archivedFile = join(server.home, 'archived_sessions', thread.path!.split('/').pop()!);
    assert.ok(existsSync(archivedFile));
    assert.deepEqual((await server.call<{ data: Thread[] }>('thread/list')).data, []);
    const archived = await server.call<{ data: Thread[] }>('thread/list', { archived: true });
    assert.deepEqual(
      archived.data.map((t) => t.id),
      [thread.id],
    );

    const restored = await server.call<{ thread: Thread }>('thread/unarchive', { threadId: thread.id });
    assert.equal(restored.thread.id, thread.id);
    assert.equal(restored.thread.name, 'Fix the flaky test');
    await server.notification('thread/unarchived', (p) => p.threadId === thread.id);
    assert.ok(existsSync(thread.path!));
    assert.deepEqual(
      (await server.call<{ data: Thread[] }>('thread/list')).data.map((t) => t.id),
      [thread.id],
    );
    assert.deepEqual((await server.call<{ data: Thread[] }>('thread/list', { archived: true })).data, []);
  });

  it('names the id of a thread that does not exist', async () => {
    const server = await start();
    for (const method of [
      'thread/read',
      'thread/resume',
      'thread/archive',
      'thread/fork',
      'thread/turns/list',
    ]) {
      const response = await server.request(method, { threadId: 'no-such-thread' });
      assert.deepEqual(response.error, { code: -32600, message: 'thread not found: no-such-thread' }, method);
    }
  });

  it('keeps threads, names and archive state across a restart', async () => {
    const home = tempDir();
    const first = await start(home);
    const a = (await first.call<{ thread: Thread }>('thread/start', {})).thread;
    const b = (await first.call<{ thread: Thread }>('thread/start', {})).thread;
    await first.call('thread/name/set', { threadId: a.id, name: 'kept' });
    await first.call('thread/archive', { threadId: b.id });
    await first.stop();
    const second = await start(home);
    const listed = await second.call<{ data: Thread[] }>('thread/list');
    assert.deepEqual(
      listed.data.map((t) => [t.id, t.name]),
      [[a.id, 'kept']],
    );
    assert.deepEqual(
      (await second.call<{ data: Thread[] }>('thread/list', { archived: true })).data.map((t) => t.id),
      [b.id],
    );
  });

  it('resumes with turns, or without them, and reports a turn cut off by a crash as interrupted', async () => {
    const home = tempDir();
    const { id } = writeRollout(home, {
      turns: [
        { id: 't1', userText: 'first question', answer: 'first answer' },
        { id: 't2', userText: 'second question', completed: false },
      ],
    });
    const server = await start(home);
    const resumed = await server.call<{ thread: Thread }>('thread/resume', { threadId: id });
    assert.equal(resumed.thread.preview, 'first question');
    assert.deepEqual(
      resumed.thread.turns.map((t) => [t.id, t.status]),
      [
        ['t1', 'completed'],
        ['t2', 'interrupted'],
      ],
    );
    assert.deepEqual(
      resumed.thread.turns[0]!.items.map((i) => i.type),
      ['userMessage', 'agentMessage'],
    );
    assert.ok(resumed.thread.turns[1]!.error);
    const slim = await server.call<{ thread: Thread; turnsBackwardsCursor: string }>('thread/resume', {
      threadId: id,
      excludeTurns: true,
    });
    assert.deepEqual(slim.thread.turns, []);
    const newest = await server.call<{ data: Thread['turns'] }>('thread/turns/list', {
      threadId: id,
      cursor: slim.turnsBackwardsCursor,
      sortDirection: 'desc',
      limit: 5,
    });
    assert.deepEqual(
      newest.data.map((t) => t.id),
      ['t2', 't1'],
      'the backwards cursor starts at the newest turn',
    );
    const read = await server.call<{ thread: Thread }>('thread/read', { threadId: id });
    assert.deepEqual(read.thread.turns, [], 'read without includeTurns has no turns');
    assert.equal(read.thread.status.type, 'idle', 'resumed threads are loaded');
  });

  it('forks a thread with its history, up to a chosen turn', async () => {
    const home = tempDir();
    const { id } = writeRollout(home, {
      turns: [
        { id: 't1', userText: 'one', answer: 'a' },
        { id: 't2', userText: 'two', answer: 'b' },
      ],
    });
    const server = await start(home);
    const whole = await server.call<{ thread: Thread }>('thread/fork', { threadId: id });
    assert.notEqual(whole.thread.id, id);
    assert.equal(whole.thread.forkedFromId, id);
    assert.deepEqual(
      whole.thread.turns.map((t) => t.id),
      ['t1', 't2'],
    );
    await server.notification('thread/started', (p) => (p.thread as Thread).id === whole.thread.id);
    const part = await server.call<{ thread: Thread }>('thread/fork', { threadId: id, lastTurnId: 't1' });
    assert.deepEqual(
      part.thread.turns.map((t) => t.id),
      ['t1'],
    );
    const reread = await server.call<{ thread: Thread }>('thread/read', {
      threadId: part.thread.id,
      includeTurns: true,
    });
    assert.deepEqual(
      reread.thread.turns.map((t) => t.id),
      ['t1'],
    );
    assert.equal(reread.thread.preview, 'one');
  });

  it('rolls back and reverts through one persisted marker mechanism', async () => {
    const home = tempDir();
    const { id } = writeRollout(home, {
      turns: ['t1', 't2', 't3', 't4'].map((t) => ({ id: t, userText: `q ${t}`, answer: `a ${t}` })),
    });
    const server = await start(home);
    const rolled = await server.call<{ thread: Thread }>('thread/rollback', { threadId: id, numTurns: 1 });
    assert.deepEqual(
      rolled.thread.turns.map((t) => t.id),
      ['t1', 't2', 't3'],
    );
    const reverted = await server.call<{ thread: Thread }>('thread/revert', {
      threadId: id,
      beforeTurnId: 't2',
    });
    assert.deepEqual(
      reverted.thread.turns.map((t) => t.id),
      ['t1'],
    );
    const tooMany = await server.request('thread/rollback', { threadId: id, numTurns: 5 });
    assert.equal(tooMany.error?.code, -32602);
    const unknownTurn = await server.request('thread/revert', { threadId: id, beforeTurnId: 't9' });
    assert.match(unknownTurn.error!.message, /turn t9 is not in the history/);
    await server.stop();
    const again = await start(home);
    const read = await again.call<{ thread: Thread }>('thread/read', { threadId: id, includeTurns: true });
    assert.deepEqual(
      read.thread.turns.map((t) => t.id),
      ['t1'],
      'the pruned history survives a restart',
    );
  });

  it('pages through a long thread with thread/turns/list in both directions and views', async () => {
    const home = tempDir();
    const turns = Array.from({ length: 45 }, (_, i) => ({
      id: `t${String(i).padStart(2, '0')}`,
      userText: `q${i}`,
      answer: `a${i}`,
    }));
    const { id } = writeRollout(home, { turns });
    const server = await start(home);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Thread['turns']; nextCursor: string | null } = await server.call(
        'thread/turns/list',
        {
          threadId: id,
          limit: 20,
          cursor,
        },
      );
      seen.push(...page.data.map((t) => t.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      turns.map((t) => t.id).reverse(),
      'newest first by default, no gaps or duplicates',
    );
    const oldest = await server.call<{ data: Thread['turns'] }>('thread/turns/list', {
      threadId: id,
      limit: 2,
      sortDirection: 'asc',
      itemsView: 'notLoaded',
    });
    assert.deepEqual(
      oldest.data.map((t) => [t.id, t.items.length]),
      [
        ['t00', 0],
        ['t01', 0],
      ],
    );
    const full = await server.call<{ data: Thread['turns'] }>('thread/turns/list', {
      threadId: id,
      limit: 1,
      itemsView: 'full',
    });
    assert.deepEqual(
      full.data[0]!.items.map((i) => i.type),
      ['userMessage', 'agentMessage'],
    );
    const bad = await server.request('thread/turns/list', { threadId: id, cursor: 'not-a-cursor' });
    assert.equal(bad.error?.code, -32602);
  });

  it('unsubscribes: notSubscribed, then unsubscribed with notLoaded status and thread/closed, then notLoaded', async () => {
    const server = await start();
    const { thread } = await server.call<{ thread: Thread }>('thread/start', {});
    assert.deepEqual(await server.call('thread/loaded/list'), { data: [thread.id], nextCursor: null });
    assert.deepEqual(await server.call('thread/unsubscribe', { threadId: thread.id }), {
      status: 'unsubscribed',
    });
    const status = await server.notification('thread/status/changed');
    assert.deepEqual(status.params, { threadId: thread.id, status: { type: 'notLoaded' } });
    await server.notification('thread/closed', (p) => p.threadId === thread.id);
    assert.deepEqual(await server.call('thread/unsubscribe', { threadId: thread.id }), {
      status: 'notLoaded',
    });
    assert.deepEqual(await server.call('thread/loaded/list'), { data: [], nextCursor: null });
    const listed = await server.call<{ data: Thread[] }>('thread/list');
    assert.equal(listed.data[0]!.status.type, 'notLoaded');
  });
});
