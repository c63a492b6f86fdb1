// A server killed mid-turn (SIGKILL: no chance to record anything): what was completed survives, the
// turn reads back as interrupted, and a new server carries on with a model that knows.
import { strict as assert } from 'node:assert';
import type { AgentMessageItem, ThreadItem } from '../../server/protocol/items';
import type { Turn } from '../../server/protocol/thread';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, completedItems, runTurn, startThread, startTurn } from '../support/agent';
import { useServers } from '../support/serverProcess';

describe('a server killed in the middle of a turn', function () {
  const model = useModelServer();
  const start = useServers();

  it('loses only the item in flight; the turn reads back interrupted and the next turn is told', async () => {
    const home = agentHome('responses', model.baseUrl);
    model.script({ output: [{ text: 'First answer.' }] });
    const first = await start(home, 'threadline_vscode', agentEnv);
    const threadId = await startThread(first);
    const done = await runTurn(first, threadId, 'first question');
    assert.equal(done.status, 'completed');

    // The second answer streams a few deltas, then the model goes quiet with the connection open.
    model.script({ output: [{ text: ['Half ', 'an ', 'answer'] }], stallAfterEvents: 6 });
    const cut = await startTurn(first, threadId, 'second question');
    await first.notification('item/agentMessage/delta', (p) => p.turnId === cut.id);
    const userItem = completedItems(first, cut.id).find((i) => i.type === 'userMessage');
    assert.ok(userItem, 'the user message completes before the model answers');
    first.child.kill('SIGKILL');
    assert.equal((await first.exited).signal, 'SIGKILL');

    const second = await start(home, 'threadline_vscode', agentEnv);
    const { thread } = await second.call<{ thread: { turns: Turn[] } }>('thread/read', {
      threadId,
      includeTurns: true,
    });
    assert.deepEqual(
      thread.turns.map((t) => t.status),
      ['completed', 'interrupted'],
    );
    const [answered, interrupted] = thread.turns as [Turn, Turn];
    assert.equal((answered.items[1] as AgentMessageItem).text, 'First answer.');
    assert.equal(interrupted.id, cut.id);
    assert.match(interrupted.error?.message ?? '', /stopped before this turn finished/);
    // Completed items survive; the message that was still streaming was never completed, so it is not there.
    assert.deepEqual(
      interrupted.items.map((i: ThreadItem) => i.type),
      ['userMessage'],
    );
    assert.equal(interrupted.items[0]!.id, userItem.id);

    await second.call('thread/resume', { threadId });
    model.script({ output: [{ text: 'Carrying on.' }] });
    const next = await runTurn(second, threadId, 'third question');
    assert.equal(next.status, 'completed');
    const sent = JSON.stringify(model.requests[model.requests.length - 1]!.body);
    assert.match(sent, /first question/);
    assert.match(sent, /First answer\./);
    assert.match(sent, /second question/);
    assert.match(sent, /cut off because the agent stopped unexpectedly/);
    const { thread: after } = await second.call<{ thread: { turns: Turn[] } }>('thread/read', {
      threadId,
      includeTurns: true,
    });
    assert.deepEqual(
      after.turns.map((t) => t.status),
      ['completed', 'interrupted', 'completed'],
    );
  });
});
