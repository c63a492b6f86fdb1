// Two windows, two servers, one home: one archives or unarchives a thread while the other is in the
// middle of a turn on it. Every record of that turn must still be there, wherever the file went.
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import type { ThreadItem } from '../../server/protocol/items';
import type { Turn } from '../../server/protocol/thread';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, runTurn, startThread, startTurn, turnCompleted } from '../support/agent';
import { useServers } from '../support/serverProcess';

interface ReadThread {
  archived?: boolean;
  turns: Turn[];
}

describe('two servers sharing one home', function () {
  this.timeout(30_000);
  const model = useModelServer();
  const start = useServers();
  const homes: string[] = [];
  afterEach(() => homes.splice(0).forEach((home) => rmSync(home, { recursive: true, force: true })));

  const answers = (thread: ReadThread) =>
    thread.turns.flatMap((turn) =>
      turn.items.filter((i): i is ThreadItem & { type: 'agentMessage' } => i.type === 'agentMessage'),
    );

  it('lets both windows archive the same thread', async () => {
    const home = agentHome('responses', model.baseUrl);
    homes.push(home);
    const first = await start(home, 'threadline_vscode', agentEnv);
    const threadId = await startThread(first);
    await first.call('thread/name/set', { threadId, name: 'archived twice' });
    const second = await start(home, 'threadline_vscode', agentEnv);
    await second.call('thread/archive', { threadId });
    await first.call('thread/archive', { threadId });
    const listed = await first.call<{ data: { id: string; name: string }[] }>('thread/list', {
      archived: true,
    });
    assert.deepEqual(
      listed.data.map((t) => t.name),
      ['archived twice'],
    );
  });

  it('keeps every record of a turn whose thread the other window archives, then unarchives', async () => {
    const home = agentHome('responses', model.baseUrl);
    homes.push(home);
    model.script({ output: [{ text: 'First answer.' }] });
    const running = await start(home, 'threadline_vscode', agentEnv);
    const threadId = await startThread(running);
    assert.equal((await runTurn(running, threadId, 'first question')).status, 'completed');

    const other = await start(home, 'threadline_vscode', agentEnv);
    const read = async (server = other) =>
      (await server.call<{ thread: ReadThread }>('thread/read', { threadId, includeTurns: true })).thread;

    // The answer comes late; the other window archives the thread while it is on its way.
    model.script({ output: [{ text: 'Answer written after the archive.' }], delayMs: 1500 });
    const late = await startTurn(running, threadId, 'second question');
    await other.call('thread/archive', { threadId });
    assert.equal((await turnCompleted(running, late.id)).status, 'completed');

    const archived = await read();
    assert.deepEqual(
      answers(archived).map((i) => i.text),
      ['First answer.', 'Answer written after the archive.'],
    );
    const listed = await other.call<{ data: { id: string }[] }>('thread/list', { archived: true });
    assert.ok(
      listed.data.some((t) => t.id === threadId),
      'listed as archived',
    );

    // And back: unarchived while a third turn runs in the first window.
    model.script({ output: [{ text: 'Answer written after the unarchive.' }], delayMs: 1500 });
    const third = await startTurn(running, threadId, 'third question');
    await other.call('thread/unarchive', { threadId });
    assert.equal((await turnCompleted(running, third.id)).status, 'completed');
    assert.deepEqual(
      answers(await read()).map((i) => i.text),
      ['First answer.', 'Answer written after the archive.', 'Answer written after the unarchive.'],
    );
    assert.deepEqual(
      answers(await read(running)).map((i) => i.text),
      ['First answer.', 'Answer written after the archive.', 'Answer written after the unarchive.'],
      'the window that ran the turns reads the same',
    );
  });
});
