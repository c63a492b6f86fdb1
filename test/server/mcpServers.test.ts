// MCP servers through the real server process: a stdio MCP server built with the SDK (a child of
// the app-server) and one over streamable HTTP on 127.0.0.1, tools called by the scripted model,
// approvals, servers that crash, hang or write garbage, the status list, resources and reload.
// Every message the server sends is checked against the reference schema.
import { strict as assert } from 'node:assert';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpToolCallItem } from '../../server/protocol/mcp';
import type { McpServerStatus } from '../../server/protocol/mcp';
import { useModelServer } from '../fixtures/modelServer/server';
import { startHttpMcpServer, type HttpFixture } from '../fixtures/mcpServer/http';
import { agentEnv, agentHome, completedItems, startThread, startTurn, turnCompleted } from '../support/agent';
import type { Incoming } from '../support/messageLog';
import { MARKERS, questionsAsked, stdioServer, toolCall } from '../support/mcpFixture';
import { ServerProcess, tempDir } from '../support/serverProcess';

describe('MCP servers', function () {
  this.timeout(40_000);
  const model = useModelServer();
  let server: ServerProcess | undefined;
  let http: HttpFixture | undefined;
  let markers = '';

  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await http?.close();
    http = undefined;
  });

  async function start(
    servers: string,
    options: { approvalPolicy?: string; env?: Record<string, string> } = {},
  ) {
    const home = agentHome('responses', model.baseUrl, {
      extraTopLevel: options.approvalPolicy ? `approval_policy = "${options.approvalPolicy}"` : '',
    });
    markers = tempDir('threadline-mcp-markers-');
    appendFileSync(join(home, 'config.toml'), `\n${servers.replaceAll(MARKERS, markers)}`);
    server = ServerProcess.start({ home, env: { ...agentEnv, ...options.env } });
    await server.initialize({ experimentalApi: true });
    return server;
  }

  const mcpItem = (s: ServerProcess, turnId: string) =>
    completedItems(s, turnId).find((i) => i.type === 'mcpToolCall') as McpToolCallItem | undefined;
  const offered = (i: number) =>
    ((model.requests[i]!.body as { tools?: { name: string; parameters?: unknown }[] }).tools ?? []).map(
      (t) => t.name,
    );
  const bodyText = (i: number) => JSON.stringify(model.requests[i]!.body);
  const statusList = async (s: ServerProcess, params: Record<string, unknown> = {}) =>
    s.call<{ data: McpServerStatus[]; nextCursor: string | null }>('mcpServerStatus/list', params);

  it('offers the tools namespaced by server; a call is an mcpToolCall item whose result goes to the model', async () => {
    const s = await start(stdioServer('notes'));
    const threadId = await startThread(s);
    model.script(toolCall('mcp__notes__echo', { text: 'hello' }, 'call_echo'), {
      output: [{ text: 'Done.' }],
    });
    const turn = await startTurn(s, threadId, 'echo hello');
    assert.equal((await turnCompleted(s, turn.id, 30_000)).status, 'completed');

    const tools = (model.requests[0]!.body as { tools: { name: string; parameters: unknown }[] }).tools;
    const echo = tools.find((t) => t.name === 'mcp__notes__echo');
    assert.ok(echo, `offered: ${offered(0).join(', ')}`);
    assert.deepEqual((echo.parameters as { required?: string[] }).required, ['text']);
    assert.ok(offered(0).includes('mcp__notes__drop_table'));

    const started = await s.notification(
      'item/started',
      (p) => (p.item as { id: string }).id === 'call_echo',
    );
    assert.equal((started.params as { item: McpToolCallItem }).item.status, 'inProgress');
    const item = mcpItem(s, turn.id)!;
    assert.equal(item.server, 'notes');
    assert.equal(item.tool, 'echo');
    assert.deepEqual(item.arguments, { text: 'hello' });
    assert.equal(item.status, 'completed');
    assert.deepEqual(item.result?.content, [{ type: 'text', text: 'echo: hello' }]);
    assert.equal(item.error, null);
    assert.equal(typeof item.durationMs, 'number');
    assert.match(bodyText(1), /echo: hello/);
    // The server's stderr reaches the log, named by server.
    assert.match(s.stderr, /mcp notes stderr: fixture notes starting/);
  });

  it('a tool error fails the item with the message; progress streams as item/mcpToolCall/progress', async () => {
    const s = await start(stdioServer('db'));
    const threadId = await startThread(s);
    model.script(
      toolCall('mcp__db__fail', {}, 'call_fail'),
      toolCall('mcp__db__count', { to: 3 }, 'call_count'),
      { output: [{ text: 'ok' }] },
    );
    const turn = await startTurn(s, threadId, 'go');
    assert.equal((await turnCompleted(s, turn.id, 30_000)).status, 'completed');
    const items = completedItems(s, turn.id).filter((i) => i.type === 'mcpToolCall') as McpToolCallItem[];
    const failed = items.find((i) => i.id === 'call_fail')!;
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.message, 'the database is locked');
    assert.match(bodyText(1), /the database is locked/);

    const counted = items.find((i) => i.id === 'call_count')!;
    assert.equal(counted.status, 'completed');
    assert.deepEqual(counted.result?.structuredContent, { total: 3 });
    const progress = s
      .notifications('item/mcpToolCall/progress')
      .map((m) => m.params as { itemId: string; turnId: string; message: string });
    assert.deepEqual(
      progress.map((p) => [p.itemId, p.turnId, p.message]),
      [1, 2, 3].map((i) => ['call_count', turn.id, `counted ${i} of 3`]),
    );
  });

  describe('a destructive tool asks first through item/tool/requestUserInput', () => {
    async function askedFor(s: ServerProcess, threadId: string) {
      model.script(toolCall('mcp__db__drop_table', { table: 'users' }, 'call_drop'), {
        output: [{ text: 'ok' }],
      });
      const turn = await startTurn(s, threadId, 'drop users');
      const asked = await s.next(
        (m: Incoming) =>
          m.method === 'item/tool/requestUserInput' &&
          m.id !== undefined &&
          (m.params as { turnId: string }).turnId === turn.id,
      );
      return { turn, asked };
    }

    it('Accept runs it', async () => {
      const s = await start(stdioServer('db'));
      const { turn, asked } = await askedFor(s, await startThread(s));
      const params = asked.params as {
        itemId: string;
        questions: { id: string; question: string; options: { label: string }[] }[];
      };
      assert.equal(params.itemId, 'call_drop');
      assert.match(params.questions[0]!.question, /"db".*drop_table.*users/);
      assert.deepEqual(
        params.questions[0]!.options.map((o) => o.label),
        ['Accept', 'Decline', 'Cancel'],
      );
      assert.ok(!existsSync(join(markers, 'dropped')), 'nothing runs before the answer');
      s.send({ id: asked.id, result: { answers: { [params.questions[0]!.id]: { answers: ['Accept'] } } } });
      assert.equal((await turnCompleted(s, turn.id, 30_000)).status, 'completed');
      assert.equal(mcpItem(s, turn.id)!.status, 'completed');
      assert.ok(existsSync(join(markers, 'dropped')));
    });

    it('Decline completes the item with an error and the tool never runs; Cancel ends the turn', async () => {
      const s = await start(stdioServer('db'));
      const threadId = await startThread(s);
      const first = await askedFor(s, threadId);
      const id = (first.asked.params as { questions: { id: string }[] }).questions[0]!.id;
      s.send({ id: first.asked.id, result: { answers: { [id]: { answers: ['Decline'] } } } });
      assert.equal((await turnCompleted(s, first.turn.id, 30_000)).status, 'completed');
      const declined = mcpItem(s, first.turn.id)!;
      assert.equal(declined.status, 'failed');
      assert.match(declined.error!.message, /declined/);
      assert.match(bodyText(1), /declined/);

      const second = await askedFor(s, threadId);
      s.send({ id: second.asked.id, result: { answers: { [id]: { answers: ['Cancel'] } } } });
      assert.equal((await turnCompleted(s, second.turn.id, 30_000)).status, 'interrupted');
      assert.equal(mcpItem(s, second.turn.id)!.status, 'failed');
      assert.ok(!existsSync(join(markers, 'dropped')), 'a declined or cancelled tool never ran');
    });

    it('under "never" nobody can be asked: refused, never run', async () => {
      const s = await start(stdioServer('db'), { approvalPolicy: 'never' });
      model.script(toolCall('mcp__db__drop_table', { table: 'users' }, 'call_drop'), {
        output: [{ text: 'ok' }],
      });
      const turn = await startTurn(s, await startThread(s), 'drop users');
      assert.equal((await turnCompleted(s, turn.id, 30_000)).status, 'completed');
      assert.equal(mcpItem(s, turn.id)!.status, 'failed');
      assert.equal(questionsAsked(s), 0);
      assert.ok(!existsSync(join(markers, 'dropped')));
    });
  });

  it('servers that crash, hang or write garbage at start fail in the status list, and the turn goes on within their timeout', async () => {
    const s = await start(
      stdioServer('good') +
        stdioServer('crashy', 'crash-on-start') +
        stdioServer('stuck', 'hang-on-start', ['startup_timeout_sec = 2']) +
        stdioServer('noisy', 'garbage', ['startup_timeout_sec = 2']),
    );
    model.script({ output: [{ text: 'fine' }] });
    const began = Date.now();
    const turn = await startTurn(s, await startThread(s), 'hi');
    assert.equal((await turnCompleted(s, turn.id, 30_000)).status, 'completed');
    assert.ok(Date.now() - began < 12_000, `the turn waited ${Date.now() - began} ms`);
    assert.ok(offered(0).includes('mcp__good__echo'));
    assert.ok(!offered(0).some((n) => /crashy|stuck|noisy/.test(n)));
    const told = s.notifications('mcpServer/startupStatus/updated').map((m) => m.params);
    assert.deepEqual(
      told.map((p) => [(p as { name: string }).name, (p as { status: string }).status]),
      [
        ['crashy', 'failed'],
        ['stuck', 'failed'],
        ['noisy', 'failed'],
      ],
    );

    const { data } = await statusList(s);
    const by = Object.fromEntries(data.map((d) => [d.name, d]));
    assert.deepEqual(Object.keys(by), ['good', 'crashy', 'stuck', 'noisy']);
    assert.equal(by.good!.runtimeStatus, 'connected');
    assert.equal(by.good!.authStatus, 'unsupported');
    assert.deepEqual(by.good!.serverInfo, { name: 'good', version: '1.2.3', title: null });
    for (const name of ['crashy', 'stuck', 'noisy']) {
      assert.equal(by[name]!.runtimeStatus, 'failed', name);
      assert.ok(by[name]!.toolsError, name);
      assert.deepEqual(by[name]!.tools, {});
    }
    assert.match(by.stuck!.toolsError!, /did not start within 2 s/);
    assert.match(s.stderr, /mcp crashy stderr: fatal: cannot open the database/);
    assert.ok(s.alive);
  });

  it('a tool that hangs fails at its timeout; a server that crashes mid-call fails the call and starts again on the next turn', async () => {
    const s = await start(stdioServer('flaky', 'normal', ['tool_timeout_sec = 1']));
    const threadId = await startThread(s);
    model.script(
      toolCall('mcp__flaky__hang', {}, 'call_hang'),
      toolCall('mcp__flaky__crash', {}, 'call_crash'),
      { output: [{ text: 'ok' }] },
    );
    const turn = await startTurn(s, threadId, 'go');
    assert.equal((await turnCompleted(s, turn.id, 30_000)).status, 'completed');
    const items = completedItems(s, turn.id) as McpToolCallItem[];
    const hang = items.find((i) => i.id === 'call_hang')!;
    assert.equal(hang.status, 'failed');
    assert.match(hang.error!.message, /no answer within 1 s/);
    assert.equal(items.find((i) => i.id === 'call_crash')!.status, 'failed');
    const after = (await statusList(s)).data[0]!;
    // The status list starts it again, as the next turn would.
    assert.equal(after.runtimeStatus, 'connected');

    model.script(toolCall('mcp__flaky__echo', { text: 'back' }, 'call_back'), { output: [{ text: 'ok' }] });
    const next = await startTurn(s, threadId, 'again');
    await turnCompleted(s, next.id, 30_000);
    assert.equal(mcpItem(s, next.id)!.status, 'completed');
  });

  it('status list pages with cursor and limit, reads resources, and answers bad input with clear errors', async () => {
    const s = await start(
      stdioServer('a') + stdioServer('b') + stdioServer('off', 'normal', ['enabled = false']),
    );
    const first = await statusList(s, { limit: 2 });
    assert.deepEqual(
      first.data.map((d) => d.name),
      ['a', 'b'],
    );
    assert.equal(first.nextCursor, '2');
    assert.deepEqual(Object.keys(first.data[0]!.tools).sort(), [
      'count',
      'crash',
      'drop_table',
      'echo',
      'env',
      'fail',
      'hang',
      'note',
    ]);
    assert.deepEqual(
      first.data[0]!.resources.map((r) => r.uri),
      ['memo://readme'],
    );
    assert.deepEqual(
      first.data[0]!.resourceTemplates.map((r) => r.uriTemplate),
      ['memo://notes/{id}'],
    );
    const rest = await statusList(s, { cursor: first.nextCursor, detail: 'toolsAndAuthOnly' });
    assert.deepEqual(
      rest.data.map((d) => [d.name, d.runtimeStatus]),
      [['off', 'disabled']],
    );
    assert.equal(rest.nextCursor, null);
    const slim = await statusList(s, { serverName: 'a', detail: 'toolsAndAuthOnly' });
    assert.deepEqual(slim.data[0]!.resources, []);

    const read = await s.call<{ contents: unknown[] }>('mcpServer/resource/read', {
      server: 'b',
      uri: 'memo://readme',
    });
    assert.deepEqual(read.contents, [{ uri: 'memo://readme', mimeType: 'text/plain', text: 'memo of b' }]);
    const note = await s.call<{ contents: { text: string }[] }>('mcpServer/resource/read', {
      server: 'a',
      uri: 'memo://notes/7',
    });
    assert.equal(note.contents[0]!.text, 'note 7');

    const errors = await Promise.all([
      s.request('mcpServerStatus/list', { serverName: 'nope' }),
      s.request('mcpServerStatus/list', { cursor: 'zzz' }),
      s.request('mcpServer/resource/read', { server: 'nope', uri: 'memo://readme' }),
      s.request('mcpServer/resource/read', { server: 'a', uri: 'memo://missing' }),
      s.request('mcpServer/resource/read', { server: 'off', uri: 'memo://readme' }),
      s.request('mcpServer/oauth/login', { name: 'a' }),
      s.request('mcpServer/resource/read', { server: 42 }),
    ]);
    assert.deepEqual(
      errors.map((e) => e.error?.code),
      [-32602, -32602, -32602, -32600, -32600, -32602, -32602],
    );
    assert.match(errors[0]!.error!.message, /no MCP server named "nope"; configured: a, b, off/);
    assert.match(errors[5]!.error!.message, /stdio server/);
    assert.ok(s.alive);
  });

  it('config/mcpServer/reload picks up an edited config.toml on the next turn; unchanged servers stay up', async () => {
    const s = await start(stdioServer('first'));
    const threadId = await startThread(s);
    model.script({ output: [{ text: 'one' }] }, { output: [{ text: 'two' }] });
    await turnCompleted(s, (await startTurn(s, threadId, 'one')).id, 30_000);
    assert.ok(offered(0).includes('mcp__first__echo'));
    assert.ok(!offered(0).includes('mcp__second__echo'));

    appendFileSync(join(s.home, 'config.toml'), `\n${stdioServer('second').replaceAll(MARKERS, markers)}`);
    assert.deepEqual(await s.call('config/mcpServer/reload'), {});
    await turnCompleted(s, (await startTurn(s, threadId, 'two')).id, 30_000);
    assert.ok(offered(1).includes('mcp__first__echo'));
    assert.ok(offered(1).includes('mcp__second__echo'));
    // "first" was not restarted: its stderr greeting appears once.
    assert.equal(s.stderr.match(/fixture first starting/g)?.length, 1);

    writeFileSync(join(s.home, 'config.toml'), 'model = "x"\n[mcp_servers.broken]\nurl = 12\n', {
      flag: 'a',
    });
    await s.call('config/mcpServer/reload');
    const names = (await statusList(s)).data.map((d) => d.name);
    assert.deepEqual(names, ['first', 'second']);
  });

  it('streamable HTTP: tools over HTTP with a bearer token from the environment, which never reaches the log', async () => {
    const token = 'mcp-bearer-0123456789-secret';
    http = await startHttpMcpServer({ bearerToken: token });
    const s = await start(
      [`[mcp_servers.remote]`, `url = "${http.url}"`, `bearer_token_env_var = "REMOTE_MCP_TOKEN"`, ''].join(
        '\n',
      ),
      { env: { REMOTE_MCP_TOKEN: token } },
    );
    model.script(toolCall('mcp__remote__echo', { text: 'over http' }, 'call_http'), {
      output: [{ text: 'ok' }],
    });
    const turn = await startTurn(s, await startThread(s), 'go');
    await turnCompleted(s, turn.id, 30_000);
    assert.deepEqual(mcpItem(s, turn.id)!.result?.content, [{ type: 'text', text: 'echo: over http' }]);
    const status = (await statusList(s)).data[0]!;
    assert.equal(status.authStatus, 'bearerToken');
    assert.equal(status.httpOrigin, new URL(http.url).origin);
    assert.ok(!s.stderr.includes(token), 'the token is not logged');
    assert.ok(!JSON.stringify(s.received).includes(token), 'the token is not sent to clients');
  });

  it('a stdio server gets only a few safe variables and its config env: no API key of ours', async () => {
    const s = await start(stdioServer('envcheck', 'normal', [], { GREETING: 'hi' }));
    model.script(
      toolCall('mcp__envcheck__env', { name: 'SCRIPTED_API_KEY' }, 'call_key'),
      toolCall('mcp__envcheck__env', { name: 'GREETING' }, 'call_greeting'),
      { output: [{ text: 'ok' }] },
    );
    const turn = await startTurn(s, await startThread(s), 'go');
    await turnCompleted(s, turn.id, 30_000);
    const items = completedItems(s, turn.id) as McpToolCallItem[];
    const text = (id: string) =>
      (items.find((i) => i.id === id)!.result!.content[0] as { text: string }).text;
    assert.equal(text('call_key'), 'unset');
    assert.equal(text('call_greeting'), 'set');
  });
});
