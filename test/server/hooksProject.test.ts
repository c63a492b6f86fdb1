// A project's own hooks and hooks/list through the real server: a hook a repository defines runs
// only once the user trusted that exact definition with the project-MCP question; "Not now" and the
// `never` policy keep it from running, a changed definition asks again. hooks/list shows every hook
// with its trust, what cannot be used, and answers bad params with -32602; its responses are checked
// against the reference schema when the server stops.
import { strict as assert } from 'node:assert';
import { appendFileSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HooksListEntry } from '../../server/protocol/hooks';
import { DISTRUST_ANSWER, PROJECT_SERVER_TRUST_QUESTION, TRUST_ANSWER } from '../../server/protocol/mcpTrust';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, turnCompleted } from '../support/agent';
import { gitRepo } from '../support/commands';
import { completedRuns, hookToml } from '../support/hooks';
import { answerTrust, questionsAsked, trustQuestion } from '../support/mcpFixture';
import { useServers, type ServerProcess } from '../support/serverProcess';

describe("a project's hooks and hooks/list", function () {
  this.timeout(60_000);
  const model = useModelServer();
  const start = useServers();
  let repo: string;
  let home: string;

  beforeEach(() => {
    repo = realpathSync(gitRepo());
    mkdirSync(join(repo, '.codex'));
    mkdirSync(join(repo, 'src'));
    home = agentHome('responses', model.baseUrl);
  });

  const projectHook = (marker: string) =>
    writeFileSync(
      join(repo, '.codex', 'config.toml'),
      hookToml('Stop', `touch ${join(repo, 'src', marker)}`),
    );

  async function thread(server: ServerProcess): Promise<string> {
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      cwd: join(repo, 'src'),
    });
    return thread.id;
  }

  const turnIn = (server: ServerProcess, threadId: string, approvalPolicy = 'on-request') => {
    model.script({ output: [{ text: 'Hi.' }] });
    return startTurn(server, threadId, 'go', {
      approvalPolicy,
      sandboxPolicy: { type: 'workspaceWrite', excludeSlashTmp: true },
    });
  };

  const list = async (server: ServerProcess, params: Record<string, unknown>) =>
    (await server.call<{ data: HooksListEntry[] }>('hooks/list', params)).data;

  it("asks before a project's hook first runs; declined or under never it does not run, trusted it runs until changed", async () => {
    projectHook('v1-ran');
    const server = await start(home, 'threadline_vscode', agentEnv);
    const threadId = await thread(server);

    // Under never nobody is asked, so the untrusted hook stays off.
    const quiet = await turnIn(server, threadId, 'never');
    await turnCompleted(server, quiet.id, 30_000);
    assert.equal(questionsAsked(server), 0);
    assert.ok(!existsSync(join(repo, 'src', 'v1-ran')));
    assert.deepEqual(completedRuns(server, quiet.id), []);

    // Asked with the project-MCP question, naming the file and the command; "Not now" holds.
    const declined = await turnIn(server, threadId);
    const asked = await trustQuestion(server, declined.id);
    const question = (asked.params as { questions: { id: string; question: string }[] }).questions[0]!;
    assert.equal(question.id, PROJECT_SERVER_TRUST_QUESTION);
    assert.ok(question.question.includes(join(repo, '.codex', 'config.toml')), question.question);
    assert.ok(question.question.includes(`touch ${join(repo, 'src', 'v1-ran')}`), question.question);
    answerTrust(server, asked, DISTRUST_ANSWER);
    await turnCompleted(server, declined.id, 30_000);
    assert.ok(!existsSync(join(repo, 'src', 'v1-ran')));
    const again = await turnIn(server, threadId);
    await turnCompleted(server, again.id, 30_000);
    assert.equal(questionsAsked(server), 1, '"Not now" is not asked again before a restart');
    assert.ok(!existsSync(join(repo, 'src', 'v1-ran')));
    const [listed] = await list(server, { threadId });
    assert.equal(listed!.hooks[0]!.trustStatus, 'untrusted');
    await server.stop();

    // After a restart it is asked again; trusted, it runs, then and on later turns without asking.
    const next = await start(home, 'threadline_vscode', agentEnv);
    const nextThread = await thread(next);
    const trusted = await turnIn(next, nextThread);
    answerTrust(next, await trustQuestion(next, trusted.id), TRUST_ANSWER);
    await turnCompleted(next, trusted.id, 30_000);
    assert.ok(existsSync(join(repo, 'src', 'v1-ran')));
    assert.equal((await list(next, { threadId: nextThread }))[0]!.hooks[0]!.trustStatus, 'trusted');
    const later = await turnIn(next, nextThread, 'never');
    await turnCompleted(next, later.id, 30_000);
    assert.deepEqual(
      completedRuns(next, later.id).map((r) => [r.source, r.status]),
      [['project', 'completed']],
    );

    // The agent could rewrite the file: a changed definition does not run before it is trusted anew.
    projectHook('v2-ran');
    const changed = await turnIn(next, nextThread, 'never');
    await turnCompleted(next, changed.id, 30_000);
    assert.ok(!existsSync(join(repo, 'src', 'v2-ran')));
    assert.equal(questionsAsked(next), 1);
  });

  it('lists the user’s and the project’s hooks with what cannot be used, and answers bad params with -32602', async () => {
    projectHook('listed');
    appendFileSync(join(home, 'config.toml'), hookToml('PreToolUse', 'echo user', { matcher: 'Bash' }));
    appendFileSync(join(home, 'config.toml'), hookToml('Nonsense', 'echo never'));
    writeFileSync(
      join(home, 'hooks.json'),
      JSON.stringify({
        hooks: {
          PreCompact: [{ hooks: [{ type: 'command', command: 'echo start' }] }],
          Stop: [{ hooks: [{ type: 'prompt' }, { type: 'command', command: '' }] }],
        },
      }),
    );
    const server = await start(home, 'threadline_vscode', agentEnv);
    const [entry] = await list(server, { cwds: [join(repo, 'src')] });
    assert.equal(entry!.cwd, join(repo, 'src'));
    assert.deepEqual(
      entry!.hooks.map((h) => [h.source, h.eventName, h.command, h.matcher, h.trustStatus, h.enabled]),
      [
        ['user', 'preToolUse', 'echo user', 'Bash', 'trusted', true],
        ['user', 'preCompact', 'echo start', null, 'trusted', true],
        ['project', 'stop', `touch ${join(repo, 'src', 'listed')}`, null, 'untrusted', true],
      ],
    );
    assert.equal(entry!.hooks[0]!.timeoutSec, 20);
    assert.equal(entry!.hooks[1]!.timeoutSec, 600, "Codex's default");
    assert.match(entry!.hooks[0]!.currentHash, /^sha256:[0-9a-f]{64}$/);
    const errors = entry!.errors.map((e) => `${e.path}: ${e.message}`).join('\n');
    assert.match(errors, /config\.toml: hooks\.Nonsense: no such event/);
    assert.match(errors, /hooks\.json: hooks\.Stop\[0\]\.hooks\[1\]: `command` must be a non-empty string/);
    const warnings = entry!.warnings.join('\n');
    assert.match(warnings, /"prompt" hooks are not run by Threadline/);
    assert.match(warnings, /does not run PreCompact hooks/);

    // The user turns one off by its key, as Codex's [hooks.state] does.
    appendFileSync(
      join(home, 'config.toml'),
      `\n[hooks.state.${JSON.stringify(entry!.hooks[0]!.key)}]\nenabled = false\n`,
    );
    const [after] = await list(server, { cwds: [join(repo, 'src')] });
    assert.equal(after!.hooks[0]!.enabled, false);

    // No cwds: the server's own folder.
    assert.equal((await list(server, {}))[0]!.cwd, process.cwd());

    for (const params of [
      { cwds: 'not-a-list' },
      { cwds: ['relative/path'] },
      { threadId: 'no-such-thread' },
      { threadId: 'x', cwds: [repo] },
    ]) {
      const answer = await server.request('hooks/list', params);
      assert.equal(answer.error?.code, -32602, JSON.stringify(params));
    }
  });
});
