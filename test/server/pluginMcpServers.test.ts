// The MCP servers of an installed plugin, through the real server: a plugin comes from somebody
// else's marketplace, so its server starts only after the user trusted that exact definition (the
// question names the plugin's .mcp.json and the command); trusted, its tools are offered and the
// status list shows it; a repository's server of the same name does not shadow it; uninstalled, it is
// stopped and gone.
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_SERVER_TRUST_QUESTION, TRUST_ANSWER } from '../../server/protocol/mcpTrust';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startThread, startTurn, turnCompleted } from '../support/agent';
import { marketplaceRepo, writeWithFolders } from '../support/marketplace';
import { FIXTURE, offeredTools, toolCall } from '../support/mcpFixture';
import type { Incoming } from '../support/messageLog';
import { repoRoot } from '../support/paths';
import { ServerProcess, tempDir } from '../support/serverProcess';

describe('MCP servers of installed plugins', function () {
  this.timeout(60_000);
  const model = useModelServer();
  let server: ServerProcess | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('start only once trusted, offer their tools, and stop when the plugin is uninstalled', async () => {
    const { repo, marketplacePath } = marketplaceRepo({
      name: 'team',
      plugins: [{ name: 'kit', source: { source: 'local', path: './plugins/kit' } }],
    });
    const args = ['--import', 'tsx', FIXTURE, 'plug'];
    writeWithFolders(
      join(repo, 'plugins', 'kit', '.mcp.json'),
      JSON.stringify({ mcpServers: { plug: { command: process.execPath, args, cwd: repoRoot } } }),
    );
    server = ServerProcess.start({ home: agentHome('responses', model.baseUrl), env: agentEnv });
    await server.initialize({ experimentalApi: true });
    const s = server;
    const statusNames = async () =>
      (await s.call<{ data: { name: string }[] }>('mcpServerStatus/list', {})).data.map((d) => d.name);
    const offered = (i: number) => offeredTools(model, i);

    await s.call('plugin/install', { marketplacePath, pluginName: 'kit' });
    assert.deepEqual(await statusNames(), [], 'not listed, and not started, before the user trusts it');
    assert.ok(!s.stderr.includes('fixture plug starting'));

    // The repository the thread works in defines a server of the same name: the installed plugin's,
    // which the user chose, wins, and the repository's is neither asked about nor started.
    const cwd = tempDir('threadline-cwd-');
    const repoArgs = JSON.stringify(['--import', 'tsx', FIXTURE, 'repo-plug']);
    writeWithFolders(
      join(cwd, '.threadline', 'config.toml'),
      `[mcp_servers.plug]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${repoArgs}\ncwd = ${JSON.stringify(repoRoot)}\n`,
    );
    const threadId = await startThread(s, cwd);
    model.script(toolCall('mcp__plug__echo', { text: 'hi' }, 'call_echo'), { output: [{ text: 'done' }] });
    const turn = await startTurn(s, threadId, 'echo');
    const asked = await s.next(
      (m: Incoming) => m.method === 'item/tool/requestUserInput' && m.id !== undefined,
    );
    const question = (asked.params as { questions: { id: string; question: string }[] }).questions[0]!;
    assert.equal(question.id, PROJECT_SERVER_TRUST_QUESTION);
    assert.ok(
      question.question.includes(join(s.home, 'plugins', 'team', 'kit', '.mcp.json')),
      question.question,
    );
    assert.ok(question.question.includes(`${process.execPath} ${args.join(' ')}`), question.question);
    assert.ok(!s.stderr.includes('fixture plug starting'), 'nothing runs before the answer');
    s.send({
      id: asked.id,
      result: { answers: { [PROJECT_SERVER_TRUST_QUESTION]: { answers: [TRUST_ANSWER] } } },
    });
    assert.equal((await turnCompleted(s, turn.id, 30_000)).status, 'completed');
    assert.ok(offered(0).includes('mcp__plug__echo'), `offered: ${offered(0).join(', ')}`);
    assert.match(JSON.stringify(model.requests[1]!.body), /echo: hi/);
    assert.deepEqual(await statusNames(), ['plug']);
    assert.equal(s.received.filter((m) => m.method === 'item/tool/requestUserInput').length, 1);
    assert.ok(!s.stderr.includes('fixture repo-plug starting'));

    await s.call('plugin/uninstall', { pluginId: 'kit@team' });
    assert.deepEqual(await statusNames(), []);
    // With the name free, the repository's server would be asked about now: this test is not about it.
    rmSync(join(cwd, '.threadline'), { recursive: true });
    model.script({ output: [{ text: 'again' }] });
    const after = await startTurn(s, threadId, 'again');
    assert.equal((await turnCompleted(s, after.id, 30_000)).status, 'completed');
    assert.ok(!offered(2).includes('mcp__plug__echo'));
  });
});
