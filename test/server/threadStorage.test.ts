import { strict as assert } from 'node:assert';
import { appendFileSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Thread } from '../../server/protocol/thread';
import { tempDir, useServers } from '../support/serverProcess';
import { writeRollout } from '../support/rollouts';

describe('app-server over stdio: listing and damaged storage', () => {
  const start = useServers();

  it('lists with filters: cwd (string or array), providers, search over names and previews', async () => {
    const home = tempDir();
    writeRollout(home, { cwd: '/p/one', turns: [{ id: 'x', userText: 'Refactor the parser' }] });
    writeRollout(home, { cwd: '/p/two', modelProvider: 'ollama', name: 'Parser cleanup' });
    writeRollout(home, { cwd: '/p/three', source: 'cli', turns: [{ id: 'y', userText: 'Write docs' }] });
    const server = await start(home);
    const list = async (params: object) =>
      (await server.call<{ data: Thread[] }>('thread/list', params)).data.map((t) => t.cwd).sort();
    assert.deepEqual(await list({ cwd: '/p/one' }), ['/p/one']);
    assert.deepEqual(await list({ cwd: ['/p/one', '/p/three'] }), ['/p/one', '/p/three']);
    assert.deepEqual(await list({ modelProviders: ['ollama'] }), ['/p/two']);
    assert.deepEqual(await list({ modelProviders: [] }), ['/p/one', '/p/three', '/p/two']);
    assert.deepEqual(await list({ searchTerm: 'PARSER' }), ['/p/one', '/p/two']);
    assert.deepEqual(await list({ sourceKinds: ['cli'] }), ['/p/three']);
  });

  it('sorts by updated_at when asked, in either direction', async () => {
    const home = tempDir();
    const old = writeRollout(home, { createdAtMs: Date.now() - 60_000 });
    const young = writeRollout(home, { createdAtMs: Date.now() - 30_000 });
    const server = await start(home);
    await server.call('thread/name/set', { threadId: old.id, name: 'touched now' });
    const ids = async (params: object) =>
      (await server.call<{ data: Thread[] }>('thread/list', params)).data.map((t) => t.id);
    assert.deepEqual(await ids({}), [young.id, old.id]);
    assert.deepEqual(await ids({ sortKey: 'updated_at' }), [old.id, young.id]);
    assert.deepEqual(await ids({ sortKey: 'updated_at', sortDirection: 'asc' }), [young.id, old.id]);
    const bad = await server.request('thread/list', { cursor: '!!!' });
    assert.equal(bad.error?.code, -32602);
  });

  it('skips corrupt lines and broken files without hiding other threads or crashing', async () => {
    const home = tempDir();
    const good = writeRollout(home, { turns: [{ id: 't1', userText: 'still here', answer: 'yes' }] });
    const damaged = writeRollout(home, { turns: [{ id: 't1', userText: 'damaged', answer: 'ok' }] });
    appendFileSync(damaged.path, '{"type":"item","turnId":"t1","item":{"type":"agentMes');
    const lines = readFileSync(damaged.path, 'utf8').split('\n');
    lines.splice(2, 0, 'this is not json');
    writeFileSync(damaged.path, lines.join('\n'));
    const day = join(home, 'sessions', '2020', '01', '01');
    mkdirSync(day, { recursive: true });
    writeFileSync(
      join(day, 'rollout-2020-01-01T00-00-00-00000000-0000-7000-8000-000000000000.jsonl'),
      'garbage\n',
    );
    writeFileSync(join(day, 'notes.txt'), 'not a rollout');
    const server = await start(home);
    const listed = await server.call<{ data: Thread[] }>('thread/list');
    assert.deepEqual(listed.data.map((t) => t.id).sort(), [good.id, damaged.id].sort());
    const read = await server.call<{ thread: Thread }>('thread/read', {
      threadId: damaged.id,
      includeTurns: true,
    });
    assert.deepEqual(
      read.thread.turns[0]!.items.map((i) => i.type),
      ['userMessage', 'agentMessage'],
    );
    assert.match(server.stderr, /skipping unreadable line/);
    assert.ok(server.alive);
  });

  it('finds threads whose rollouts appeared behind its back, and survives a broken index', async () => {
    const home = tempDir();
    const first = await start(home);
    const made = (await first.call<{ thread: Thread }>('thread/start', {})).thread;
    await first.stop();
    const added = writeRollout(home, { createdAtMs: Date.now() - 86_400_000 * 3 });
    const second = await start(home);
    const ids = (await second.call<{ data: Thread[] }>('thread/list')).data.map((t) => t.id);
    assert.deepEqual(ids.sort(), [made.id, added.id].sort());
    await second.stop();
    writeFileSync(join(home, 'thread-index.json'), '{"version":1,"threads":[{"id":');
    const third = await start(home);
    const again = (await third.call<{ data: Thread[] }>('thread/list')).data.map((t) => t.id);
    assert.deepEqual(again.sort(), [made.id, added.id].sort());
    assert.match(third.stderr, /thread index unreadable, rebuilding/);
  });
});
