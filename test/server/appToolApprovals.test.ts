// Apps decide how the tools of the MCP server they name are offered and approved (config.toml's
// `[apps.<id>]` and `[apps._default]`), through the real server, the stdio MCP fixture and the scripted
// model: a tool switched off is not offered, `prompt` asks even for a read-only tool, `writes` asks for
// a tool that does not say it only reads, `approve` runs a destructive tool without asking (even under
// `never`), and destructive tools are hidden where the apps do not allow them. Marker files prove
// whether a tool really ran.
import { strict as assert } from 'node:assert';
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { McpToolCallItem } from '../../server/protocol/mcp';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, completedItems, startThread, startTurn, turnCompleted } from '../support/agent';
import { MARKERS, questionsAsked, stdioServer, toolCall } from '../support/mcpFixture';
import type { Incoming } from '../support/messageLog';
import { ServerProcess, tempDir } from '../support/serverProcess';

const TRACKER = [
  '[apps.tracker]',
  'name = "Tracker"',
  'mcp_server = "db"',
  'default_tools_approval_mode = "writes"',
  '[apps.tracker.tools.echo]',
  'approval_mode = "prompt"',
  '[apps.tracker.tools.drop_table]',
  'approval_mode = "approve"',
  '[apps.tracker.tools.fail]',
  'enabled = false',
  '',
].join('\n');

describe('app tool approvals', function () {
  this.timeout(60_000);
  const model = useModelServer();
  let server: ServerProcess | undefined;
  let markers = '';

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  async function start(config: string, approvalPolicy = 'on-request') {
    const home = agentHome('responses', model.baseUrl, {
      extraTopLevel: `approval_policy = "${approvalPolicy}"`,
    });
    markers = tempDir('threadline-app-markers-');
    appendFileSync(join(home, 'config.toml'), `\n${config.replaceAll(MARKERS, markers)}`);
    server = ServerProcess.start({ home, env: agentEnv });
    await server.initialize({ experimentalApi: true });
    return server;
  }

  const offered = (i: number) =>
    ((model.requests[i]!.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
  const mcpItem = (s: ServerProcess, turnId: string, id: string) =>
    completedItems(s, turnId).find((i) => i.id === id) as McpToolCallItem | undefined;

  /** Waits for the question about one call and answers it with `choice`. */
  async function answer(s: ServerProcess, itemId: string, choice: string) {
    const asked = await s.next(
      (m: Incoming) =>
        m.method === 'item/tool/requestUserInput' &&
        m.id !== undefined &&
        (m.params as { itemId: string }).itemId === itemId,
    );
    const { questions } = asked.params as { questions: { id: string }[] };
    s.send({ id: asked.id, result: { answers: { [questions[0]!.id]: { answers: [choice] } } } });
  }

  it('offers, asks and runs each tool as its app says', async () => {
    const s = await start(stdioServer('db') + TRACKER);
    const threadId = await startThread(s);
    model.script(
      toolCall('mcp__db__echo', { text: 'hi' }, 'call_echo'),
      toolCall('mcp__db__note', { text: 'remember' }, 'call_note'),
      toolCall('mcp__db__drop_table', { table: 'users' }, 'call_drop'),
      toolCall('mcp__db__count', { to: 1 }, 'call_count'),
      { output: [{ text: 'done' }] },
    );
    const turn = await startTurn(s, threadId, 'go');
    // echo only reads, but its app says prompt: asked, and accepted.
    await answer(s, 'call_echo', 'Accept');
    // note does not say it only reads, and the app's default is writes: asked, and declined.
    await answer(s, 'call_note', 'Decline');
    assert.equal((await turnCompleted(s, turn.id, 30_000)).status, 'completed');

    assert.ok(!offered(0).includes('mcp__db__fail'), 'a tool switched off is not offered');
    assert.ok(offered(0).includes('mcp__db__echo'));
    assert.equal(questionsAsked(s), 2, 'drop_table (approve) and count (read-only, writes) ran unasked');
    assert.equal(mcpItem(s, turn.id, 'call_echo')!.status, 'completed');
    assert.equal(mcpItem(s, turn.id, 'call_note')!.status, 'failed');
    assert.ok(!existsSync(join(markers, 'noted')), 'the declined note never ran');
    assert.equal(mcpItem(s, turn.id, 'call_drop')!.status, 'completed');
    assert.ok(existsSync(join(markers, 'dropped')), 'the approved destructive tool ran without asking');
    assert.equal(mcpItem(s, turn.id, 'call_count')!.status, 'completed');
  });

  it('a tool the user approved in config runs under "never"; the others still cannot ask', async () => {
    const s = await start(stdioServer('db') + TRACKER, 'never');
    model.script(
      toolCall('mcp__db__drop_table', { table: 'users' }, 'call_drop'),
      toolCall('mcp__db__note', { text: 'remember' }, 'call_note'),
      { output: [{ text: 'done' }] },
    );
    const turn = await startTurn(s, await startThread(s), 'go');
    assert.equal((await turnCompleted(s, turn.id, 30_000)).status, 'completed');
    assert.equal(questionsAsked(s), 0);
    assert.ok(existsSync(join(markers, 'dropped')));
    assert.equal(mcpItem(s, turn.id, 'call_note')!.status, 'failed');
    assert.ok(!existsSync(join(markers, 'noted')));
  });

  it('hides destructive tools where the apps do not allow them, and every tool of a disabled app', async () => {
    const s = await start(
      stdioServer('db') +
        stdioServer('wiki') +
        ['[apps._default]', 'destructive_enabled = false', '[apps.tracker]', 'mcp_server = "db"'].join('\n') +
        ['', '[apps.pages]', 'mcp_server = "wiki"', 'enabled = false', ''].join('\n'),
    );
    model.script({ output: [{ text: 'hello' }] });
    const turn = await startTurn(s, await startThread(s), 'hi');
    assert.equal((await turnCompleted(s, turn.id, 30_000)).status, 'completed');
    assert.ok(offered(0).includes('mcp__db__echo'));
    assert.ok(!offered(0).includes('mcp__db__drop_table'), `offered: ${offered(0).join(', ')}`);
    assert.ok(
      !offered(0).some((name) => name.startsWith('mcp__wiki__')),
      `offered: ${offered(0).join(', ')}`,
    );
  });
});
