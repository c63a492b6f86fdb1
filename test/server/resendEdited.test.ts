// Edit and resend through the extension's own code (replaceLastTurn) against the real server and the
// scripted model: the last turn is rolled back and the edited message runs as a new turn, so the model
// never sees the old message again; a turn that is no longer the last is refused with nothing dropped.
import { strict as assert } from 'node:assert';
import { ServerClient } from '../../extension/client/serverClient';
import { replaceLastTurn } from '../../extension/conversation/resendEdited';
import type { ServerNotification } from '../../server/protocol/notificationRoutes';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome } from '../support/agent';
import { serverBundle } from '../support/paths';
import { tempDir } from '../support/serverProcess';
import { until } from '../support/until';

const text = (value: string) => [{ type: 'text' as const, text: value }];

describe('edit and resend against the real server', function () {
  this.timeout(60_000);
  const model = useModelServer();
  const clients: ServerClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.dispose();
  });

  async function threadWithTurns(...prompts: string[]) {
    const home = agentHome('responses', model.baseUrl);
    const client = new ServerClient({
      launch: () => ({
        command: process.execPath,
        args: [serverBundle, 'app-server'],
        env: { ...process.env, ...agentEnv, THREADLINE_HOME: home },
      }),
      clientInfo: { name: 'threadline_vscode', title: 'Threadline', version: '0.0.0' },
      log: { info() {}, warn() {}, error() {}, server() {} },
    });
    clients.push(client);
    const completed = new Set<string>();
    client.onNotification((n: ServerNotification) => {
      if (n.method === 'turn/completed') completed.add(n.params.turn.id);
    });
    const { thread } = await client.request('thread/start', { cwd: tempDir('threadline-edit-') });
    const turnIds: string[] = [];
    for (const prompt of prompts) {
      model.script({ output: [{ text: `answer to ${prompt}` }] });
      const { turn } = await client.request('turn/start', { threadId: thread.id, input: text(prompt) });
      await until(() => completed.has(turn.id), 20_000);
      turnIds.push(turn.id);
    }
    return { client, threadId: thread.id, turnIds, completed };
  }

  const userTexts = async (client: ServerClient, threadId: string) => {
    const { thread } = await client.request('thread/read', { threadId, includeTurns: true });
    return thread.turns.map((t) =>
      t.items.flatMap((i) =>
        i.type === 'userMessage' ? i.content.map((c) => ('text' in c ? c.text : '')) : [],
      ),
    );
  };

  it('drops the last turn and sends the edited message as a new one the model reads without the old', async () => {
    const { client, threadId, turnIds, completed } = await threadWithTurns('first', 'Fix teh build');
    model.script({ output: [{ text: 'fixed' }] });
    let viewReread = false;
    const newTurn = await replaceLastTurn(
      client,
      threadId,
      turnIds[1]!,
      text('Fix the build'),
      {},
      async () => {
        viewReread = true;
      },
    );
    await until(() => completed.has(newTurn), 20_000);
    assert.ok(viewReread, 'the view reads the shortened thread before the new turn');
    assert.notEqual(newTurn, turnIds[1]);
    assert.deepEqual(await userTexts(client, threadId), [['first'], ['Fix the build']]);
    const last = JSON.stringify(model.requests.at(-1)!.body);
    assert.match(last, /Fix the build/);
    assert.match(last, /first/);
    assert.doesNotMatch(last, /Fix teh build/, 'the old message is gone from what the model reads');
  });

  it('refuses a turn that is no longer the last, dropping nothing', async () => {
    const { client, threadId, turnIds } = await threadWithTurns('one', 'two');
    await assert.rejects(
      replaceLastTurn(client, threadId, turnIds[0]!, text('one, edited'), {}),
      /no longer the last one/,
    );
    assert.deepEqual(await userTexts(client, threadId), [['one'], ['two']]);
  });
});
