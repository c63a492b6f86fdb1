// Tools that ask the client: request_user_input (plan mode only) and dynamic tools declared at
// thread/start, through the real server and the scripted model server, every message checked
// against the schema.
import { strict as assert } from 'node:assert';
import type { DynamicToolCallItem } from '../../server/protocol/toolCallItems';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, completedItems, startTurn, turnCompleted } from '../support/agent';
import type { Incoming } from '../support/messageLog';
import { ServerProcess } from '../support/serverProcess';

const PLAN_MODE = { mode: 'plan', settings: { model: 'test-model', developer_instructions: null } };
const bodyText = (request: { body: unknown }) => JSON.stringify(request.body);
const toolNames = (request: { body: { tools?: { name?: string }[] } }) =>
  (request.body.tools ?? []).map((t) => t.name);

const QUESTIONS = {
  questions: [
    {
      id: 'db_choice',
      header: 'Database',
      question: 'Which database should the service use?',
      options: [
        { label: 'Postgres', description: 'Recommended: already deployed.' },
        { label: 'SQLite', description: 'Simplest to run locally.' },
      ],
    },
  ],
};

const WEATHER_TOOL = {
  name: 'lookup_weather',
  description: 'Looks up the weather of a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('tools answered by the client', function () {
  const model = useModelServer();
  let server: ServerProcess | undefined;
  afterEach(async () => {
    server?.assertSchemaClean();
    await server?.stop();
    server = undefined;
  });

  async function start() {
    server = ServerProcess.start({ home: agentHome('responses', model.baseUrl), env: agentEnv });
    await server.initialize({ name: 'threadline_vscode', experimentalApi: true });
    return server;
  }

  const request = (s: ServerProcess, method: string) =>
    s.next((m: Incoming) => m.method === method && m.id !== undefined);

  it('request_user_input: refused outside plan mode, its questions asked and the answers given to the model in it', async () => {
    const s = await start();
    const { thread } = await s.call<{ thread: { id: string } }>('thread/start', {});
    model.script(
      {
        output: [
          {
            toolCall: { name: 'request_user_input', arguments: JSON.stringify(QUESTIONS), callId: 'call_0' },
          },
        ],
      },
      { output: [{ text: 'No questions.' }] },
      {
        output: [
          {
            toolCall: { name: 'request_user_input', arguments: JSON.stringify(QUESTIONS), callId: 'call_q' },
          },
        ],
      },
      { output: [{ text: 'Postgres it is.' }] },
    );
    const plain = await startTurn(s, thread.id, 'hi');
    await turnCompleted(s, plain.id);
    // Listed outside plan mode too (one tool list per thread keeps the prompt cache), but refused.
    assert.ok(toolNames(model.requests[0]!).includes('request_user_input'));
    assert.match(bodyText(model.requests[1]!), /request_user_input works only in plan mode/);
    assert.ok(!s.received.some((m) => m.method === 'item/tool/requestUserInput'), 'nobody was asked');

    const turn = await startTurn(s, thread.id, 'plan the storage', { collaborationMode: PLAN_MODE });
    const asked = await request(s, 'item/tool/requestUserInput');
    const params = asked.params as {
      turnId: string;
      itemId: string;
      isBlocking: boolean;
      questions: unknown[];
    };
    assert.equal(params.turnId, turn.id);
    assert.equal(params.itemId, 'call_q');
    assert.equal(params.isBlocking, true);
    assert.equal((params.questions[0] as { id: string }).id, 'db_choice');
    const waiting = await s.notification('thread/status/changed', (p) =>
      ((p.status as { activeFlags?: string[] }).activeFlags ?? []).includes('waitingOnUserInput'),
    );
    assert.ok(waiting);
    s.send({ id: asked.id, result: { answers: { db_choice: { answers: ['Postgres'] } } } });

    assert.equal((await turnCompleted(s, turn.id)).status, 'completed');
    assert.deepEqual(
      toolNames(model.requests[2]!),
      toolNames(model.requests[0]!),
      'the same tools in plan mode',
    );
    assert.match(bodyText(model.requests[3]!), /db_choice.*Postgres/);
    await s.notification('serverRequest/resolved', (p) => p.requestId === asked.id);
  });

  it('dynamic tools: offered to the model, called through item/tool/call, the client content sent back', async () => {
    const s = await start();
    const { thread } = await s.call<{ thread: { id: string } }>('thread/start', {
      dynamicTools: [WEATHER_TOOL],
    });
    model.script(
      {
        output: [{ toolCall: { name: 'lookup_weather', arguments: '{"city":"Oslo"}', callId: 'call_w' } }],
      },
      { output: [{ text: 'It is snowing in Oslo.' }] },
    );
    const turn = await startTurn(s, thread.id, 'Weather in Oslo?');
    const call = await request(s, 'item/tool/call');
    assert.deepEqual(call.params, {
      threadId: thread.id,
      turnId: turn.id,
      callId: 'call_w',
      tool: 'lookup_weather',
      arguments: { city: 'Oslo' },
      namespace: null,
    });
    s.send({
      id: call.id,
      result: {
        success: true,
        contentItems: [
          { type: 'inputText', text: 'Snow, -3 °C' },
          { type: 'inputImage', imageUrl: 'https://example.com/snow.png' },
        ],
      },
    });
    assert.equal((await turnCompleted(s, turn.id)).status, 'completed');

    const first = model.requests[0]!.body as { tools: { name: string; parameters?: unknown }[] };
    const offered = first.tools.find((t) => t.name === 'lookup_weather');
    assert.deepEqual(offered?.parameters, WEATHER_TOOL.inputSchema);
    const second = bodyText(model.requests[1]!);
    assert.match(second, /Snow, -3 °C/);
    assert.match(second, /https:\/\/example.com\/snow.png/);

    const item = completedItems(s, turn.id).find((i) => i.type === 'dynamicToolCall') as DynamicToolCallItem;
    assert.equal(item.id, 'call_w');
    assert.equal(item.status, 'completed');
    assert.equal(item.success, true);
    assert.deepEqual(item.arguments, { city: 'Oslo' });
    assert.equal(item.contentItems?.length, 2);
    assert.equal(typeof item.durationMs, 'number');
    const statuses = s
      .notifications('thread/status/changed')
      .map((m) => (m.params as { status: { activeFlags?: string[] } }).status.activeFlags ?? []);
    assert.ok(
      statuses.every((flags) => flags.length === 0),
      'a client-run tool does not wait on the person',
    );
  });

  it('dynamic tools: a failed or refused call is a failed item and the model is told', async () => {
    const s = await start();
    const { thread } = await s.call<{ thread: { id: string } }>('thread/start', {
      dynamicTools: [WEATHER_TOOL],
    });
    model.script(
      { output: [{ toolCall: { name: 'lookup_weather', arguments: '{"city":"Nowhere"}', callId: 'c1' } }] },
      { output: [{ toolCall: { name: 'lookup_weather', arguments: '{"city":"Oslo"}', callId: 'c2' } }] },
      { output: [{ text: 'Sorry.' }] },
    );
    const turn = await startTurn(s, thread.id, 'Weather?');
    const first = await request(s, 'item/tool/call');
    s.send({
      id: first.id,
      result: { success: false, contentItems: [{ type: 'inputText', text: 'unknown city' }] },
    });
    const second = await s.next(
      (m) => m.method === 'item/tool/call' && m.id !== undefined && m.id !== first.id,
    );
    s.send({ id: second.id, error: { code: -32000, message: 'tool crashed' } });
    assert.equal((await turnCompleted(s, turn.id)).status, 'completed');
    const items = completedItems(s, turn.id).filter(
      (i) => i.type === 'dynamicToolCall',
    ) as DynamicToolCallItem[];
    assert.deepEqual(
      items.map((i) => [i.id, i.status, i.success]),
      [
        ['c1', 'failed', false],
        ['c2', 'failed', false],
      ],
    );
    assert.match(bodyText(model.requests[1]!), /unknown city/);
    assert.match(bodyText(model.requests[2]!), /lookup_weather did not run: .*tool crashed/);
  });

  it('dynamic tools: listed but refused in plan mode, without asking the client (their effects are unknown)', async () => {
    const s = await start();
    const { thread } = await s.call<{ thread: { id: string } }>('thread/start', {
      dynamicTools: [WEATHER_TOOL],
    });
    model.script(
      { output: [{ toolCall: { name: 'lookup_weather', arguments: '{"city":"Oslo"}', callId: 'c_plan' } }] },
      { output: [{ text: 'Planned.' }] },
    );
    const turn = await startTurn(s, thread.id, 'Plan the weather', { collaborationMode: PLAN_MODE });
    assert.equal((await turnCompleted(s, turn.id)).status, 'completed');
    assert.ok(toolNames(model.requests[0]! as never).includes('lookup_weather'), 'still listed');
    assert.equal(
      s.received.filter((m) => m.method === 'item/tool/call').length,
      0,
      'the client was not asked',
    );
    assert.match(bodyText(model.requests[1]!), /lookup_weather does not run in plan mode/);
  });
});
