// MCP servers a project defines in its own .codex/config.toml, through the real server: nothing of
// theirs runs before the user trusts that exact definition, a changed definition asks again, "Not
// now" and the `never` policy keep it stopped, and the user's own config wins a name.
import { strict as assert } from 'node:assert';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DISTRUST_ANSWER, PROJECT_SERVER_TRUST_QUESTION, TRUST_ANSWER } from '../../server/protocol/mcpTrust';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, turnCompleted } from '../support/agent';
import { answerTrust, offeredTools, trustQuestion } from '../support/mcpFixture';
import type { Incoming } from '../support/messageLog';
import { repoRoot } from '../support/paths';
import { ServerProcess, tempDir } from '../support/serverProcess';

const FIXTURE = join(repoRoot, 'test', 'fixtures', 'mcpServer', 'stdio.ts');

function table(name: string, greeting: string): string {
  return [
    `[mcp_servers.${name}]`,
    `command = ${JSON.stringify(process.execPath)}`,
    `args = ${JSON.stringify(['--import', 'tsx', FIXTURE, greeting])}`,
    `cwd = ${JSON.stringify(repoRoot)}`,
    '',
  ].join('\n');
}

/** The item/tool/requestUserInput requests the server sent (requests, not notifications). */
const questionsAsked = (s: ServerProcess) =>
  s.received.filter((m) => m.method === 'item/tool/requestUserInput' && m.id !== undefined).length;

describe('MCP servers defined by a project', function () {
  this.timeout(40_000);
  const model = useModelServer();
  let server: ServerProcess | undefined;
  let project = '';

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  async function start(options: { approvalPolicy?: string; userServers?: string } = {}) {
    project = tempDir('threadline-mcp-project-');
    mkdirSync(join(project, '.git'));
    mkdirSync(join(project, '.codex'));
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, '.codex', 'config.toml'), table('proj', 'proj-v1'));
    const home = agentHome('responses', model.baseUrl, {
      extraTopLevel: options.approvalPolicy ? `approval_policy = "${options.approvalPolicy}"` : '',
    });
    if (options.userServers) appendFileSync(join(home, 'config.toml'), `\n${options.userServers}`);
    server = ServerProcess.start({ home, env: agentEnv });
    await server.initialize({ experimentalApi: true });
    // The thread works in a folder below the project root: the root's config still counts.
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      cwd: join(project, 'src'),
    });
    return { s: server, threadId: thread.id };
  }

  const offered = (i: number) => offeredTools(model, i);

  it('asks once, naming the file and the exact command; trusted, its tools are offered from then on', async () => {
    const { s, threadId } = await start();
    model.script(
      { output: [{ text: 'one' }] },
      { output: [{ text: 'two' }] },
      { output: [{ text: 'three' }] },
    );
    const first = await startTurn(s, threadId, 'one');
    const asked = await trustQuestion(s, first.id);
    const question = (
      asked.params as { questions: { id: string; question: string; options: { label: string }[] }[] }
    ).questions[0]!;
    assert.equal(question.id, PROJECT_SERVER_TRUST_QUESTION);
    assert.ok(question.question.includes(join(project, '.codex', 'config.toml')), question.question);
    assert.ok(
      question.question.includes(`${process.execPath} --import tsx ${FIXTURE} proj-v1`),
      question.question,
    );
    assert.match(question.question, /outside the sandbox/);
    assert.deepEqual(
      question.options.map((o) => o.label),
      [TRUST_ANSWER, DISTRUST_ANSWER],
    );
    assert.ok(!s.stderr.includes('fixture proj-v1 starting'), 'nothing runs before the answer');
    answerTrust(s, asked, TRUST_ANSWER);
    await turnCompleted(s, first.id, 30_000);
    assert.ok(offered(0).includes('mcp__proj__echo'));

    const second = await startTurn(s, threadId, 'two');
    await turnCompleted(s, second.id, 30_000);
    assert.ok(offered(1).includes('mcp__proj__echo'));
    assert.equal(questionsAsked(s), 1, 'asked once');

    // The status list shows the thread's trusted project servers when it names the thread.
    const names = async (params: Record<string, unknown>) =>
      (await s.call<{ data: { name: string }[] }>('mcpServerStatus/list', params)).data.map((d) => d.name);
    assert.deepEqual(await names({}), []);
    assert.deepEqual(await names({ threadId }), ['proj']);
    const unknown = await s.request('mcpServerStatus/list', { threadId: 'no-such-thread' });
    assert.equal(unknown.error?.code, -32602);

    // The definition changes (the agent could write this file): asked again before it runs.
    writeFileSync(join(project, '.codex', 'config.toml'), table('proj', 'proj-v2'));
    await s.call('config/mcpServer/reload');
    const third = await startTurn(s, threadId, 'three');
    const again = await trustQuestion(s, third.id);
    assert.match(JSON.stringify(again.params), /proj-v2/);
    answerTrust(s, again, DISTRUST_ANSWER);
    await turnCompleted(s, third.id, 30_000);
    assert.ok(!offered(2).includes('mcp__proj__echo'));
    assert.ok(!s.stderr.includes('fixture proj-v2 starting'), 'a declined definition never runs');
  });

  it('"Not now" keeps it stopped without asking again; under "never" it is never asked about or started', async () => {
    const { s, threadId } = await start();
    model.script({ output: [{ text: 'one' }] }, { output: [{ text: 'two' }] });
    const first = await startTurn(s, threadId, 'one');
    answerTrust(s, await trustQuestion(s, first.id), DISTRUST_ANSWER);
    await turnCompleted(s, first.id, 30_000);
    const second = await startTurn(s, threadId, 'two');
    await turnCompleted(s, second.id, 30_000);
    assert.equal(questionsAsked(s), 1);
    assert.ok(!offered(1).includes('mcp__proj__echo'));
    assert.ok(!s.stderr.includes('fixture proj-v1 starting'));
    assert.ok(!existsSync(join(s.home, 'trusted-mcp-servers.json')));
    await s.stop();

    const never = await start({ approvalPolicy: 'never' });
    model.script({ output: [{ text: 'quiet' }] });
    const turn = await startTurn(never.s, never.threadId, 'go');
    await turnCompleted(never.s, turn.id, 30_000);
    assert.equal(questionsAsked(never.s), 0);
    assert.ok(!never.s.stderr.includes('fixture proj-v1 starting'));
  });

  it('reads .threadline/config.toml too (where an import of .mcp.json puts them), before .codex', async () => {
    const { s, threadId } = await start();
    mkdirSync(join(project, '.threadline'));
    writeFileSync(
      join(project, '.threadline', 'config.toml'),
      table('proj', 'threadline-proj') + table('other', 'other-proj'),
    );
    model.script({ output: [{ text: 'ok' }] });
    const turn = await startTurn(s, threadId, 'go');
    const first = await trustQuestion(s, turn.id);
    assert.match(JSON.stringify(first.params), /\.threadline\/config\.toml.*threadline-proj/);
    answerTrust(s, first, TRUST_ANSWER);
    const second = await s.next(
      (m: Incoming) => m.method === 'item/tool/requestUserInput' && m.id !== undefined && m.id !== first.id,
    );
    assert.match(JSON.stringify(second.params), /other-proj/);
    answerTrust(s, second, DISTRUST_ANSWER);
    await turnCompleted(s, turn.id, 30_000);
    assert.equal(questionsAsked(s), 2, '.codex/config.toml\'s "proj" is shadowed by the nearer file');
    assert.ok(offered(0).includes('mcp__proj__echo'));
    assert.ok(!offered(0).includes('mcp__other__echo'));
  });

  it("the user's own server of the same name wins, unasked", async () => {
    const { s, threadId } = await start({ userServers: table('proj', 'user-proj') });
    model.script({ output: [{ text: 'ok' }] });
    const turn = await startTurn(s, threadId, 'go');
    await turnCompleted(s, turn.id, 30_000);
    assert.equal(questionsAsked(s), 0);
    assert.ok(offered(0).includes('mcp__proj__echo'));
    assert.ok(s.stderr.includes('fixture user-proj starting'));
    assert.ok(!s.stderr.includes('fixture proj-v1 starting'));
  });
});
