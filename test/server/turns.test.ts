// Turns against the scripted model server, in each wire format: the real server process over
// stdio, a real HTTP model endpoint on 127.0.0.1, every message checked against the schema.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentMessageItem, ReasoningItem, ThreadItem } from '../../server/protocol/items';
import type { Turn } from '../../server/protocol/thread';
import { startModelServer, useModelServer, type ModelServer } from '../fixtures/modelServer/server';
import type { WireFormat } from '../fixtures/modelServer/scenario';
import {
  agentEnv,
  agentHome,
  completedItems,
  runTurn,
  startThread,
  startTurn,
  TEST_KEY,
  turnCompleted,
  turnEvents,
  type ProviderOptions,
} from '../support/agent';
import { tempDir, useServers } from '../support/serverProcess';
import { until } from '../support/until';

const WIRES: WireFormat[] = ['responses', 'chat', 'anthropic'];
const bodyText = (request: { body: unknown }) => JSON.stringify(request.body);

for (const wire of WIRES) {
  describe(`turns over the ${wire} wire`, function () {
    const model = useModelServer();
    const start = useServers();
    const serve = (options: ProviderOptions = {}, home = agentHome(wire, model.baseUrl, options)) =>
      start(home, 'threadline_vscode', agentEnv);

    it('streams text into an agent message, with usage, and goes active then idle', async () => {
      model.script({
        output: [{ text: ['Hel', 'lo', ' there'] }],
        usage: { input: 42, output: 7, cached: 12 },
      });
      const server = await serve();
      const threadId = await startThread(server);
      const turn = await startTurn(server, threadId, 'Say hello');
      assert.equal(turn.status, 'inProgress');
      const done = await turnCompleted(server, turn.id);
      assert.equal(done.status, 'completed');
      assert.equal(done.error, null);

      const events = turnEvents(server, turn.id);
      assert.equal(events[0], 'turn/started');
      assert.equal(events[events.length - 1], 'turn/completed');
      const deltas = server
        .notifications('item/agentMessage/delta')
        .map((m) => (m.params as { delta: string }).delta);
      assert.deepEqual(deltas, ['Hel', 'lo', ' there']);
      const items = completedItems(server, turn.id);
      assert.deepEqual(
        items.map((i) => i.type),
        ['userMessage', 'agentMessage'],
      );
      assert.equal((items[1] as AgentMessageItem).text, 'Hello there');

      const usage = (await server.notification('thread/tokenUsage/updated')).params as {
        tokenUsage: { last: Record<string, number>; total: Record<string, number> };
      };
      assert.equal(usage.tokenUsage.last.outputTokens, 7);
      assert.equal(usage.tokenUsage.total.cachedInputTokens, 12);
      const statuses = server
        .notifications('thread/status/changed')
        .map((m) => (m.params as { status: { type: string } }).status.type);
      assert.deepEqual(statuses, ['active', 'idle']);

      const [request] = model.requests;
      assert.equal(request!.wire, wire);
      assert.match(bodyText(request!), /Say hello/);
      assert.match(bodyText(request!), /test-model/);
      const auth = request!.headers.authorization ?? request!.headers['x-api-key'];
      assert.ok(auth?.includes(TEST_KEY), 'the API key from env_key is sent');
      assert.ok(!server.stderr.includes(TEST_KEY), 'the key never reaches the log');
    });

    it('streams reasoning into a reasoning item', async () => {
      model.script({ output: [{ reasoning: { summary: [['Think', 'ing'], ['More']] } }, { text: 'ok' }] });
      const server = await serve();
      const threadId = await startThread(server);
      const done = await runTurn(server, threadId, 'Think');
      assert.equal(done.status, 'completed');
      const reasoning = completedItems(server, done.id).find((i) => i.type === 'reasoning') as ReasoningItem;
      assert.deepEqual(reasoning.summary.join(''), 'ThinkingMore');
      const summaryDeltas = server
        .notifications('item/reasoning/summaryTextDelta')
        .map((m) => (m.params as { delta: string }).delta)
        .join('');
      assert.equal(summaryDeltas, 'ThinkingMore');
    });

    it('runs a tool the model calls and sends its result back', async () => {
      const plan = { plan: [{ step: 'Read the code', status: 'in_progress' }], explanation: 'Starting' };
      model.script(
        {
          output: [
            {
              toolCall: { name: 'update_plan', arguments: JSON.stringify(plan), callId: 'call_1', chunks: 3 },
            },
          ],
        },
        { output: [{ text: 'Planned.' }] },
      );
      const server = await serve();
      const threadId = await startThread(server);
      const done = await runTurn(server, threadId, 'Make a plan');
      assert.equal(done.status, 'completed');
      const update = (await server.notification('turn/plan/updated')).params as {
        plan: { step: string; status: string }[];
        explanation: string;
      };
      assert.deepEqual(update.plan, [{ step: 'Read the code', status: 'inProgress' }]);
      assert.equal(update.explanation, 'Starting');
      assert.equal(model.requests.length, 2);
      const second = bodyText(model.requests[1]!);
      assert.match(second, /call_1/);
      assert.match(second, /Plan updated/);
      assert.match(bodyText(model.requests[0]!), /update_plan/, 'the tool was offered');
    });

    it('persists a turn with reasoning and a tool call, and resumes it in a new server process', async () => {
      const plan = { plan: [{ step: 'Look', status: 'completed' }] };
      model.script(
        {
          output: [
            { reasoning: { summary: [['Thinking it over']], encryptedContent: 'enc-1', signature: 'sig-1' } },
            { toolCall: { name: 'update_plan', arguments: JSON.stringify(plan), callId: 'call_keep' } },
          ],
        },
        { output: [{ text: 'Remembered answer.' }] },
      );
      const home = agentHome(wire, model.baseUrl);
      const first = await serve({}, home);
      const threadId = await startThread(first);
      const done = await runTurn(first, threadId, 'Remember this');
      assert.equal(done.status, 'completed');
      const items = completedItems(first, done.id);
      await first.stop();

      const second = await serve({}, home);
      const { thread } = await second.call<{ thread: { turns: Turn[] } }>('thread/resume', { threadId });
      assert.deepEqual(thread.turns[0]!.items, items, 'the items read back as they were sent');
      model.script({ output: [{ text: 'Still here.' }] });
      assert.equal((await runTurn(second, threadId, 'And now?')).status, 'completed');
      const resumed = bodyText(model.requests[model.requests.length - 1]!);
      for (const part of ['Remember this', 'call_keep', 'Plan updated', 'Remembered answer.', 'And now?']) {
        assert.match(resumed, new RegExp(part), `the resumed history carries ${part}`);
      }
      // Reasoning goes back the way each API wants it: encrypted (Responses) or signed (Anthropic).
      const replayed = { responses: /enc-1/, anthropic: /sig-1/, chat: null }[wire];
      if (replayed) assert.match(resumed, replayed);
    });

    it('retries a 500 and tells the client it will retry', async () => {
      model.script({ httpError: { status: 500, message: 'boom' } }, { output: [{ text: 'recovered' }] });
      const server = await serve();
      const threadId = await startThread(server);
      const done = await runTurn(server, threadId, 'Hi');
      assert.equal(done.status, 'completed');
      const errors = server.notifications('error').map((m) => m.params as { willRetry: boolean });
      assert.deepEqual(
        errors.map((e) => e.willRetry),
        [true],
      );
      assert.equal(model.requests.length, 2);
    });

    const failures: [string, Parameters<ModelServer['script']>, unknown][] = [
      ['401 → unauthorized', [{ httpError: { status: 401, message: 'bad key' } }], 'unauthorized'],
      ['400 → badRequest', [{ httpError: { status: 400, message: 'nope' } }], 'badRequest'],
      [
        '500s until retries run out → responseTooManyFailedAttempts',
        [{ httpError: { status: 500 } }, { httpError: { status: 500 } }],
        { responseTooManyFailedAttempts: { httpStatusCode: 500 } },
      ],
      [
        'a cut stream → responseStreamDisconnected',
        [
          { output: [{ text: ['a', 'b', 'c', 'd'] }], cutAfterEvents: 3 },
          { output: [{ text: ['a', 'b', 'c', 'd'] }], cutAfterEvents: 3 },
        ],
        { responseStreamDisconnected: { httpStatusCode: null } },
      ],
    ];
    for (const [name, script, info] of failures) {
      it(`fails the turn with a classified error: ${name}`, async () => {
        model.script(...script);
        const server = await serve();
        const threadId = await startThread(server);
        const done = await runTurn(server, threadId, 'Hi');
        assert.equal(done.status, 'failed');
        assert.deepEqual(done.error?.codexErrorInfo, info);
        assert.ok(done.error?.message);
        const final = server.notifications('error').pop()!.params as { willRetry: boolean; error: unknown };
        assert.equal(final.willRetry, false);
        assert.deepEqual(final.error, done.error);
        assert.ok(!JSON.stringify(done.error).includes(TEST_KEY));
      });
    }

    it('fails with httpConnectionFailed when the endpoint is down', async () => {
      const dead = await startModelServer();
      const url = dead.baseUrl;
      await dead.close();
      const server = await serve({ requestMaxRetries: 0 }, agentHome(wire, url, { requestMaxRetries: 0 }));
      const threadId = await startThread(server);
      const done = await runTurn(server, threadId, 'Hi');
      assert.equal(done.status, 'failed');
      assert.deepEqual(done.error?.codexErrorInfo, { httpConnectionFailed: { httpStatusCode: null } });
    });

    it('gives up on a stream that goes idle', async () => {
      model.script(
        { output: [{ text: ['a', 'b', 'c'] }], stallAfterEvents: 2 },
        { output: [{ text: ['a', 'b', 'c'] }], stallAfterEvents: 2 },
      );
      const server = await serve({ streamIdleTimeoutMs: 300, streamMaxRetries: 1 });
      const threadId = await startThread(server);
      const done = await runTurn(server, threadId, 'Hi');
      assert.equal(done.status, 'failed');
      assert.deepEqual(done.error?.codexErrorInfo, { responseStreamDisconnected: { httpStatusCode: null } });
    });

    it('interrupts mid-stream: the partial message completes, and the next turn knows', async () => {
      // Stall after the second text delta, whatever each wire sends before its first.
      const stallAfterEvents = { responses: 6, chat: 3, anthropic: 5 }[wire];
      model.script({ output: [{ text: ['Partial ', 'answer', ' never', ' sent'] }], stallAfterEvents });
      const server = await serve({ streamIdleTimeoutMs: 60_000 });
      const threadId = await startThread(server);
      const turn = await startTurn(server, threadId, 'Write a lot');
      await server.notification('item/agentMessage/delta');
      await server.call('turn/interrupt', { threadId, turnId: turn.id });
      const done = await turnCompleted(server, turn.id);
      assert.equal(done.status, 'interrupted');
      const message = completedItems(server, turn.id).find(
        (i) => i.type === 'agentMessage',
      ) as AgentMessageItem;
      assert.ok(message, 'the partial agent message was completed');
      const streamed = server
        .notifications('item/agentMessage/delta')
        .map((m) => (m.params as { delta: string }).delta)
        .join('');
      assert.equal(message.text, streamed);

      model.script({ output: [{ text: 'ok' }] });
      await runTurn(server, threadId, 'Again');
      assert.match(bodyText(model.requests[1]!), /interrupted the previous turn/);
    });

    it('steers input into the running turn at the next model request', async () => {
      model.script({ output: [{ text: 'first' }], delayMs: 400 }, { output: [{ text: 'second' }] });
      const server = await serve();
      const threadId = await startThread(server);
      const turn = await startTurn(server, threadId, 'Start');
      await until(() => model.requests.length === 1);
      const wrong = await server.request('turn/steer', {
        threadId,
        expectedTurnId: 'nope',
        input: [{ type: 'text', text: 'x' }],
      });
      assert.equal(wrong.error?.code, -32600);
      const steered = await server.call<{ turnId: string }>('turn/steer', {
        threadId,
        expectedTurnId: turn.id,
        input: [{ type: 'text', text: 'Also do this' }],
      });
      assert.equal(steered.turnId, turn.id);
      const done = await turnCompleted(server, turn.id);
      assert.equal(done.status, 'completed');
      assert.equal(model.requests.length, 2);
      assert.match(bodyText(model.requests[1]!), /Also do this/);
      const users = completedItems(server, turn.id).filter((i) => i.type === 'userMessage');
      assert.equal(users.length, 2);
      const idle = await server.request('turn/steer', {
        threadId,
        expectedTurnId: turn.id,
        input: [{ type: 'text', text: 'late' }],
      });
      assert.equal(idle.error?.code, -32600);
      assert.match(idle.error!.message, /no turn is running/);
    });

    it('refuses a second turn while one runs', async () => {
      model.script({ output: [{ text: 'slow' }], delayMs: 300 });
      const server = await serve();
      const threadId = await startThread(server);
      const turn = await startTurn(server, threadId, 'One');
      const second = await server.request('turn/start', { threadId, input: [{ type: 'text', text: 'Two' }] });
      assert.equal(second.error?.code, -32600);
      assert.match(second.error!.message, /already running/);
      await turnCompleted(server, turn.id);
    });

    it('starts only one of two turns requested at once', async () => {
      model.script({ output: [{ text: 'one' }], delayMs: 200 });
      const server = await serve();
      const threadId = await startThread(server);
      // A skill makes turn/start read a file, so the two requests overlap in real I/O.
      const skill = join(tempDir('threadline-skill-'), 'SKILL.md');
      writeFileSync(skill, '# A skill\nDo it well.');
      const input = [{ type: 'skill', name: 'a-skill', path: skill }];
      const answers = await Promise.all([
        server.request('turn/start', { threadId, input }),
        server.request('turn/start', { threadId, input }),
      ]);
      const started = answers.filter((a) => a.result);
      assert.equal(started.length, 1);
      assert.equal(answers.find((a) => a.error)?.error?.code, -32600);
      await turnCompleted(server, (started[0]!.result as { turn: Turn }).turn.id);
    });

    it('compacts on request: one contextCompaction item, and later turns start from the summary', async () => {
      model.script(
        { output: [{ text: 'The old details' }] },
        { output: [{ text: 'SUMMARY-XYZ' }] },
        { output: [{ text: 'ok' }] },
      );
      const server = await serve();
      const threadId = await startThread(server);
      const first = await runTurn(server, threadId, 'Remember ALPHA-123');
      await server.call('thread/compact/start', { threadId });
      const started = await server.next(
        (m) => m.method === 'turn/started' && (m.params as { turn: Turn }).turn.id !== first.id,
      );
      const done = await turnCompleted(server, (started.params as { turn: Turn }).turn.id);
      assert.equal(done.status, 'completed');
      assert.deepEqual(
        completedItems(server, done.id).map((i: ThreadItem) => i.type),
        ['contextCompaction'],
      );
      await runTurn(server, threadId, 'Next');
      const last = bodyText(model.requests[2]!);
      assert.match(last, /SUMMARY-XYZ/);
      assert.doesNotMatch(last, /The old details/);
    });

    it('compacts automatically when the context nears the window', async () => {
      model.script(
        { output: [{ text: 'big' }], usage: { input: 950, output: 10 } },
        { output: [{ text: 'SHORT-SUMMARY' }] },
        { output: [{ text: 'ok' }] },
      );
      const server = await serve({ extraTopLevel: 'model_context_window = 1000' });
      const threadId = await startThread(server);
      await runTurn(server, threadId, 'One');
      const second = await runTurn(server, threadId, 'Two');
      assert.equal(second.status, 'completed');
      assert.deepEqual(
        completedItems(server, second.id).map((i) => i.type),
        ['userMessage', 'contextCompaction', 'agentMessage'],
      );
      assert.match(bodyText(model.requests[2]!), /SHORT-SUMMARY/);
    });
  });
}
