// When a thread with no subscribers leaves memory: after thread_unload_delay_secs, not while its
// turn runs, and not at all when a client comes back in time.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startThread, startTurn } from '../support/agent';
import { tempDir, useServers } from '../support/serverProcess';

const loadedIds = async (server: { call<T>(method: string): Promise<T> }) =>
  (await server.call<{ data: string[] }>('thread/loaded/list')).data;

describe('unloading threads nobody is subscribed to', function () {
  const model = useModelServer();
  const start = useServers();

  it('waits thread_unload_delay_secs, and a client that comes back meanwhile keeps it loaded', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.toml'), 'thread_unload_delay_secs = 1\n');
    const server = await start(home);
    const kept = await startThread(server);
    const dropped = await startThread(server);
    for (const threadId of [kept, dropped]) {
      assert.deepEqual(await server.call('thread/unsubscribe', { threadId }), { status: 'unsubscribed' });
    }
    assert.deepEqual((await loadedIds(server)).sort(), [kept, dropped].sort());
    await server.call('thread/resume', { threadId: kept, excludeTurns: true });

    const closed = await server.notification('thread/closed', (p) => p.threadId === dropped);
    assert.deepEqual(closed.params, { threadId: dropped });
    assert.deepEqual(await loadedIds(server), [kept]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await loadedIds(server), [kept]);
    assert.equal(server.notifications('thread/closed').length, 1);
  });

  it('keeps a thread loaded while its turn runs, and unloads it when the turn ends', async () => {
    const server = await start(agentHome('chat', model.baseUrl), 'threadline_vscode', agentEnv);
    const threadId = await startThread(server);
    model.script({ output: [{ text: ['slow ', 'answer'] }], eventDelayMs: 150 });
    const turn = await startTurn(server, threadId, 'take your time');
    await server.call('thread/unsubscribe', { threadId });
    assert.deepEqual(await loadedIds(server), [threadId], 'still loaded mid-turn');
    await server.notification('thread/closed', (p) => p.threadId === threadId);
    assert.deepEqual(await loadedIds(server), []);
    const { thread } = await server.call<{ thread: { turns: { id: string; status: string }[] } }>(
      'thread/read',
      { threadId, includeTurns: true },
    );
    assert.deepEqual(
      thread.turns.map((t) => [t.id, t.status]),
      [[turn.id, 'completed']],
    );
  });
});
