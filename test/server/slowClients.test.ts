// Clients that stop reading: a WebSocket client paused during a long answer neither holds up the
// other clients nor makes the server keep everything for it (it is disconnected past its limit, or
// gets the deltas it missed joined), and the stdio client that reads slowly still gets every word.
import { strict as assert } from 'node:assert';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startThread, startTurn, text, turnCompleted } from '../support/agent';
import type { MessageLog } from '../support/messageLog';
import { useServers } from '../support/serverProcess';
import { until } from '../support/until';
import { WsClient, startWsServer, stopWsServer } from '../support/wsServer';

/** An answer of `count` deltas, and its text. */
function longAnswer(count: number, width: number) {
  const deltas = Array.from({ length: count }, (_, i) => `${i}`.padEnd(width, '.') + ' ');
  return { deltas, text: deltas.join('') };
}

function agentDeltas(client: MessageLog, turnId: string) {
  return client
    .notifications('item/agentMessage/delta')
    .map((m) => m.params as { turnId: string; delta: string })
    .filter((p) => p.turnId === turnId)
    .map((p) => p.delta);
}

describe('clients that stop reading', function () {
  this.timeout(60_000);
  const model = useModelServer();

  describe('over WebSocket', () => {
    let server: Awaited<ReturnType<typeof startWsServer>> | undefined;
    const clients: WsClient[] = [];
    afterEach(async () => {
      for (const client of clients.splice(0)) client.socket.terminate();
      if (server) await stopWsServer(server);
      server = undefined;
    });

    async function serve(env: Record<string, string> = {}) {
      const home = agentHome('responses', model.baseUrl);
      server = await startWsServer('ws://127.0.0.1:0', [], { home, env: { ...agentEnv, ...env } });
      const connect = async (name: string) => {
        const client = await WsClient.connect(server!.url, server!.token);
        clients.push(client);
        await client.initialize({ name });
        return client;
      };
      return { paused: await connect('paused'), other: await connect('other') };
    }

    /**
     * The paused client stops reading and asks for a long answer; the other client runs a turn
     * meanwhile. Returns the id of the paused client's turn/start request.
     */
    async function pauseDuringLongAnswer(paused: WsClient, other: WsClient, deltas: string[]) {
      const pausedThread = await startThread(paused);
      const otherThread = await startThread(other);
      model.script({ output: [{ text: deltas }] }, { output: [{ text: 'short answer' }] });
      paused.socket.pause();
      const asked = model.requests.length;
      const started = `long-${pausedThread}`;
      paused.send({
        id: started,
        method: 'turn/start',
        params: { threadId: pausedThread, input: [text('long')] },
      });
      // The model answers in the order it is asked: the long answer must go to the paused client.
      await until(() => model.requests.length > asked);
      const otherTurn = await startTurn(other, otherThread, 'something small');
      assert.equal((await turnCompleted(other, otherTurn.id, 20_000)).status, 'completed');
      return { started, pausedThread };
    }

    /** The other client sees the paused client's turn end (the server is done with the answer). */
    async function untilEnded(other: WsClient, threadId: string) {
      await until(async () => {
        const { thread } = await other.call<{ thread: { status: { type: string } } }>('thread/read', {
          threadId,
        });
        return thread.status.type !== 'active';
      }, 30_000);
    }

    it('disconnects a client that stops reading past its limit, and serves the others meanwhile', async () => {
      const { paused, other } = await serve({ THREADLINE_CLIENT_QUEUE_BYTES: String(256 * 1024) });
      const { deltas } = longAnswer(40_000, 100);
      const { pausedThread } = await pauseDuringLongAnswer(paused, other, deltas);
      await until(() => /disconnected: the client is not reading/.test(server!.stderr()), 30_000);
      assert.match(server!.stderr(), /connection \d+: disconnected: the client is not reading: [\d.]+ MiB/);
      const closed = new Promise((resolve) => paused.socket.once('close', resolve));
      paused.socket.resume();
      await closed;
      // The long turn went on without its client and ends; the server still serves.
      await untilEnded(other, pausedThread);
      assert.ok(await other.call('thread/loaded/list'));
    });

    it('gives a client that reads again the deltas it missed, joined, with the whole answer', async () => {
      const { paused, other } = await serve();
      const { deltas, text } = longAnswer(60_000, 24);
      const { started, pausedThread } = await pauseDuringLongAnswer(paused, other, deltas);
      await untilEnded(other, pausedThread);
      paused.socket.resume();
      const answer = await paused.next((m) => m.id === started, 30_000);
      const longTurn = (answer.result as { turn: { id: string } }).turn;
      assert.equal((await turnCompleted(paused, longTurn.id, 30_000)).status, 'completed');
      const received = agentDeltas(paused, longTurn.id);
      assert.equal(received.join(''), text);
      assert.ok(received.length < deltas.length, `${received.length} deltas: none joined`);
      const completed = paused
        .notifications('item/completed')
        .map((m) => (m.params as { item: { type: string; text?: string } }).item)
        .find((item) => item.type === 'agentMessage');
      assert.equal(completed?.text, text);
      paused.assertSchemaClean();
      other.assertSchemaClean();
    });
  });

  describe('over stdio', () => {
    const start = useServers();

    it('gives a client that reads slowly the whole answer, in order, its deltas joined', async () => {
      const { deltas, text } = longAnswer(30_000, 24);
      const plan = { plan: [{ step: 'answer', status: 'completed' }] };
      model.script(
        {
          output: [
            { text: deltas },
            { toolCall: { name: 'update_plan', arguments: JSON.stringify(plan), callId: 'call_plan' } },
          ],
        },
        { output: [{ text: 'after the plan' }] },
      );
      const server = await start(agentHome('responses', model.baseUrl), 'threadline_vscode', agentEnv);
      const threadId = await startThread(server);
      const turn = await startTurn(server, threadId, 'a long answer, please');
      server.child.stdout.pause();
      // The model is asked again only once the server has handled the whole first answer.
      await until(() => model.requests.length === 2, 30_000);
      server.child.stdout.resume();
      assert.equal((await turnCompleted(server, turn.id, 30_000)).status, 'completed');
      const received = agentDeltas(server, turn.id);
      assert.equal(received.join(''), `${text}after the plan`);
      assert.ok(received.length < deltas.length, `${received.length} deltas: none joined`);
      // Joined deltas never move past other messages: the answer's deltas, its item/completed, the plan.
      const firstAnswer = server
        .notifications('item/completed')
        .find((m) => (m.params as { item: { type: string } }).item.type === 'agentMessage');
      const completedAt = server.received.indexOf(firstAnswer!);
      const lastDeltaAt = server.received.findLastIndex(
        (m) =>
          m.method === 'item/agentMessage/delta' &&
          (m.params as { delta: string }).delta !== 'after the plan',
      );
      assert.ok(lastDeltaAt < completedAt, 'a delta went out after its item completed');
      assert.ok(server.received.findIndex((m) => m.method === 'turn/plan/updated') > completedAt);
    });
  });
});
