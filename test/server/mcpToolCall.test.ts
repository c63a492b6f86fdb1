// mcpServer/tool/call through the built server: a client calls a configured MCP server's tool
// directly, under the agent's own rules. The user's servers answer (results checked against the
// reference schema); a tool the approval rule says must be asked about is refused and never runs
// (nobody can be asked outside a turn) unless config.toml approves it; a tool the apps leave out is
// refused; a project's server runs only once the user has trusted it in a turn.
import { strict as assert } from 'node:assert';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRUST_ANSWER } from '../../server/protocol/mcpTrust';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startThread, startTurn, turnCompleted } from '../support/agent';
import { validateServerMessage } from '../support/codexSchema';
import { answerTrust, FIXTURE, MARKERS, stdioServer, trustQuestion } from '../support/mcpFixture';
import type { MessageLog } from '../support/messageLog';
import { repoRoot } from '../support/paths';
import { checkedCall, errorOf } from '../support/referenceCalls';
import { ServerProcess, tempDir } from '../support/serverProcess';

const APPS = `
[apps.database]
name = "Database"
mcp_server = "db"

[apps.database.tools.drop_table]
approval_mode = "approve"

[apps.database.tools.count]
enabled = false
`;

const METHOD = 'mcpServer/tool/call';
const checked = <T>(server: MessageLog, params: unknown) => checkedCall<T>(server, METHOD, params);
const refusal = (server: MessageLog, params: unknown) => errorOf(server, METHOD, params);

describe('mcpServer/tool/call', function () {
  this.timeout(40_000);
  const model = useModelServer();
  let server: ServerProcess | undefined;
  let markers = '';

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  async function start(extra = '', approvalPolicy?: string) {
    const home = agentHome('responses', model.baseUrl, {
      extraTopLevel: approvalPolicy ? `approval_policy = "${approvalPolicy}"` : '',
    });
    markers = tempDir('threadline-mcp-markers-');
    const servers = stdioServer('notes') + stdioServer('db') + APPS + extra;
    appendFileSync(join(home, 'config.toml'), `\n${servers.replaceAll(MARKERS, markers)}`);
    server = ServerProcess.start({ home, env: agentEnv });
    await server.initialize({ experimentalApi: true });
    return server;
  }

  it('checks results against the reference schema for real (a wrong result is caught)', () => {
    assert.notDeepEqual(
      validateServerMessage({ id: 1, result: { isError: false } }, 'mcpServer/tool/call'),
      [],
    );
  });

  it("calls the user's servers' tools and answers what the tool answered, errors included", async () => {
    const s = await start();
    const threadId = await startThread(s);
    const echoed = await checked(s, { threadId, server: 'notes', tool: 'echo', arguments: { text: 'hi' } });
    assert.deepEqual(echoed, { content: [{ type: 'text', text: 'echo: hi' }], isError: false });
    const failed = await checked(s, { threadId, server: 'notes', tool: 'fail' });
    assert.deepEqual(failed, { content: [{ type: 'text', text: 'the database is locked' }], isError: true });
    const counted = await checked<{ structuredContent: unknown }>(s, {
      threadId,
      server: 'notes',
      tool: 'count',
      arguments: { to: 2 },
    });
    assert.deepEqual(counted.structuredContent, { total: 2 });
  });

  it('refuses what the approval rule or the apps do not allow, and runs what config.toml approved', async () => {
    const s = await start();
    const threadId = await startThread(s);
    const destructive = await refusal(s, {
      threadId,
      server: 'notes',
      tool: 'drop_table',
      arguments: { table: 'users' },
    });
    assert.equal(destructive.code, -32600);
    assert.match(
      destructive.message,
      /needs the user's approval[^]*may change or delete data[^]*did not run/,
    );
    assert.ok(!existsSync(join(markers, 'dropped')), 'the refused tool never ran');
    // The same tool of "db", approved in its app's config, runs; "count" the app switched off.
    assert.deepEqual(
      await checked(s, { threadId, server: 'db', tool: 'drop_table', arguments: { table: 'users' } }),
      { content: [{ type: 'text', text: 'dropped users' }], isError: false },
    );
    assert.equal(readFileSync(join(markers, 'dropped'), 'utf8'), 'users');
    const leftOut = await refusal(s, { threadId, server: 'db', tool: 'count', arguments: { to: 1 } });
    assert.match(leftOut.message, /apps configuration leaves out count/);
    await s.stop();

    // Under `untrusted`, a tool that does not say it only reads asks too: refused.
    const strict = await start('', 'untrusted');
    const strictThread = await startThread(strict);
    const note = await refusal(strict, {
      threadId: strictThread,
      server: 'notes',
      tool: 'note',
      arguments: { text: 'x' },
    });
    assert.match(note.message, /needs the user's approval/);
    await checked(strict, {
      threadId: strictThread,
      server: 'notes',
      tool: 'echo',
      arguments: { text: 'read' },
    });
  });

  it("refuses a project's server until a turn has trusted it", async () => {
    const s = await start();
    const project = tempDir('threadline-mcp-project-');
    mkdirSync(join(project, '.git'));
    mkdirSync(join(project, '.codex'));
    const table = [
      '[mcp_servers.proj]',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = ${JSON.stringify(['--import', 'tsx', FIXTURE, 'proj-v1'])}`,
      `cwd = ${JSON.stringify(repoRoot)}`,
      '',
    ].join('\n');
    writeFileSync(join(project, '.codex', 'config.toml'), table);
    const threadId = await startThread(s, project);
    const call = { threadId, server: 'proj', tool: 'echo', arguments: { text: 'p' } };
    const refused = await refusal(s, call);
    assert.equal(refused.code, -32600);
    assert.match(refused.message, /"proj" of .*config\.toml is not trusted/);
    assert.ok(!s.stderr.includes('fixture proj-v1 starting'), 'nothing of the project ran');

    model.script({ output: [{ text: 'ok' }] });
    const turn = await startTurn(s, threadId, 'hello');
    answerTrust(s, await trustQuestion(s, turn.id), TRUST_ANSWER);
    await turnCompleted(s, turn.id, 30_000);
    assert.deepEqual(await checked(s, call), {
      content: [{ type: 'text', text: 'echo: p' }],
      isError: false,
    });
  });

  it('answers -32602 to bad params and a clear error for an unknown thread', async () => {
    const s = await start();
    const threadId = await startThread(s);
    const bad: unknown[] = [
      { server: 'notes', tool: 'echo' },
      { threadId, tool: 'echo' },
      { threadId, server: 'notes' },
      { threadId, server: 'notes', tool: 'echo', arguments: 'text' },
      { threadId, server: 'notes', tool: 'echo', arguments: [1] },
      { threadId, server: 'nowhere', tool: 'echo' },
      { threadId, server: 'notes', tool: 'no_such_tool' },
    ];
    for (const params of bad) assert.equal((await refusal(s, params)).code, -32602, JSON.stringify(params));
    assert.match(
      (await refusal(s, { threadId, server: 'nowhere', tool: 'echo' })).message,
      /configured: notes, db/,
    );
    const unknown = '00000000-0000-7000-8000-000000000000';
    const error = await refusal(s, { threadId: unknown, server: 'notes', tool: 'echo' });
    assert.match(error.message, new RegExp(`thread not found: ${unknown}`));
  });
});
