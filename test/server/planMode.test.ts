// Plan mode and personality: what the model is told, the <proposed_plan> block as a plan item, and
// both staying in force for the thread's later turns.
import { strict as assert } from 'node:assert';
import type { AgentMessageItem } from '../../server/protocol/items';
import { useModelServer } from '../fixtures/modelServer/server';
import {
  agentEnv,
  agentHome,
  completedItems,
  contextMessagesOf,
  instructionsOf,
  newestContextOf,
  startThread,
  startTurn,
  turnCompleted,
} from '../support/agent';
import { ServerProcess } from '../support/serverProcess';

const PLAN_MODE = { mode: 'plan', settings: { model: 'test-model', developer_instructions: null } };
/** The concatenated deltas one item received through `method`. */
const streamed = (server: ServerProcess, method: string, itemId: string) =>
  server
    .notifications(method)
    .map((m) => m.params as { itemId: string; delta: string })
    .filter((p) => p.itemId === itemId)
    .map((p) => p.delta)
    .join('');

describe('plan mode and personality', function () {
  const model = useModelServer();
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  async function start(experimentalApi: boolean) {
    server = ServerProcess.start({ home: agentHome('responses', model.baseUrl), env: agentEnv });
    await server.initialize({ name: 'threadline_vscode', experimentalApi });
    return server;
  }

  it('streams the proposed plan as a plan item and keeps the mode and personality for later turns', async () => {
    const server = await start(true);
    const threadId = await startThread(server);
    model.script({
      output: [
        { text: ['Looked around.\n<propos', 'ed_plan>\n1. Edit', ' a.ts\n</proposed_plan>', '\nOK?'] },
      ],
    });
    const turn = await startTurn(server, threadId, 'plan it', {
      collaborationMode: PLAN_MODE,
      personality: 'pragmatic',
    });
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');

    const items = completedItems(server, turn.id);
    assert.deepEqual(
      items.map((i) => i.type),
      ['userMessage', 'plan', 'agentMessage'],
    );
    const plan = items[1] as { id: string; text: string };
    assert.equal(plan.text, '\n1. Edit a.ts\n');
    assert.equal(streamed(server, 'item/plan/delta', plan.id), plan.text);
    const message = items[2] as AgentMessageItem;
    assert.equal(message.text, 'Looked around.\n\nOK?');
    assert.equal(streamed(server, 'item/agentMessage/delta', message.id), message.text);

    const [first] = model.requests;
    const told = newestContextOf(first!);
    assert.match(told, /# Collaboration mode\nYou are in plan mode/);
    assert.match(told, /# Personality\nBe direct/);
    assert.doesNotMatch(
      instructionsOf(first!),
      /You are in plan mode|# Personality/,
      'the system prompt stays frozen',
    );

    // The next turn names neither: both stay; then the default mode drops the plan instructions.
    model.script({ output: [{ text: 'Still planning.' }] }, { output: [{ text: 'Doing it.' }] });
    const second = await startTurn(server, threadId, 'refine');
    await turnCompleted(server, second.id);
    const third = await startTurn(server, threadId, 'go', {
      collaborationMode: { mode: 'default', settings: { model: 'test-model' } },
    });
    await turnCompleted(server, third.id);
    const [, refine, go] = model.requests;
    assert.deepEqual(contextMessagesOf(refine!), contextMessagesOf(first!), 'nothing changed, nothing added');
    assert.deepEqual(contextMessagesOf(go!).slice(0, 1), contextMessagesOf(first!), 'what was sent stays');
    const update = newestContextOf(go!);
    assert.match(update, /^<threadline_context_update>\n# Collaboration mode\nNo longer in force/);
    assert.doesNotMatch(update, /Personality/, 'the personality stays as told');
    assert.equal(instructionsOf(go!), instructionsOf(first!));
    // The model keeps the whole answer, tags included, in its history.
    assert.match(JSON.stringify(go!.body.input), /<proposed_plan>\\n1\. Edit a\.ts\\n<\/proposed_plan>/);
  });

  it('refuses collaborationMode from a client without experimentalApi', async () => {
    const server = await start(false);
    const threadId = await startThread(server);
    await assert.rejects(
      server.call('turn/start', {
        threadId,
        input: [{ type: 'text', text: 'x' }],
        collaborationMode: PLAN_MODE,
      }),
      /turn\/start\.collaborationMode requires experimentalApi capability/,
    );
  });
});
