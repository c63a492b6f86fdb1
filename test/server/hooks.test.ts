// The user's hooks through the real server, the scripted model and real bubblewrap: a hook runs on
// its event with the reference's JSON on stdin and its output in the log; a PreToolUse hook blocks a
// call by exit code 2 or a deny, and one whose answer cannot be read blocks it too (fail closed); a
// failing or timed-out hook is reported and the turn still ends; a Stop hook sends the model back
// once; a hook is confined by the thread's sandbox. Every message is checked against the reference
// schema when its server stops.
import { strict as assert } from 'node:assert';
import { appendFileSync, existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedResponse } from '../fixtures/modelServer/scenario';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, TEST_KEY, turnCompleted } from '../support/agent';
import { execCall, gitRepo } from '../support/commands';
import { completedRuns, hookToml } from '../support/hooks';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';

const bodyText = (request: { body: unknown }) => JSON.stringify(request.body);

describe('hooks', function () {
  this.timeout(60_000);
  const model = useModelServer();
  const start = useServers();
  let repo: string;
  let home: string;

  beforeEach(() => {
    repo = realpathSync(gitRepo());
    home = agentHome('responses', model.baseUrl);
  });

  const configure = (...tables: string[]) => appendFileSync(join(home, 'config.toml'), tables.join(''));

  /** One turn under `never` + workspace-write (nothing asks), the model playing `responses`. */
  async function turn(
    responses: ScriptedResponse[],
    server?: ServerProcess,
    env: Record<string, string> = {},
  ): Promise<{ server: ServerProcess; turnId: string; status: string }> {
    model.script(...responses);
    const s = server ?? (await start(home, 'threadline_vscode', { ...agentEnv, ...env }));
    const { thread } = await s.call<{ thread: { id: string } }>('thread/start', { cwd: repo });
    const started = await startTurn(s, thread.id, 'go', {
      approvalPolicy: 'never',
      sandboxPolicy: { type: 'workspaceWrite', excludeSlashTmp: true, excludeTmpdirEnvVar: true },
    });
    const { status } = await turnCompleted(s, started.id, 40_000);
    return { server: s, turnId: started.id, status };
  }

  it('runs a PreToolUse and a PostToolUse hook on a matching tool call, with the call on stdin and their output in the log', async () => {
    configure(
      hookToml('PreToolUse', `cat > pre.json; echo pre-hook-says-hi ${TEST_KEY}`, { matcher: 'Bash' }),
      hookToml('PostToolUse', 'cat > post.json', { matcher: '^Bash$' }),
      hookToml('PreToolUse', 'touch never.txt', { matcher: 'apply_patch' }),
    );
    const { server, turnId, status } = await turn(execCall({ cmd: 'echo ran > ran.txt' }, 'Done.', 'call_1'));
    assert.equal(status, 'completed');
    assert.equal(readFileSync(join(repo, 'ran.txt'), 'utf8'), 'ran\n', 'the tool ran');
    const pre = JSON.parse(readFileSync(join(repo, 'pre.json'), 'utf8'));
    assert.equal(pre.hook_event_name, 'PreToolUse');
    assert.equal(pre.tool_name, 'Bash');
    assert.deepEqual(pre.tool_input, { command: 'echo ran > ran.txt' });
    assert.equal(pre.tool_use_id, 'call_1');
    assert.equal(pre.turn_id, turnId);
    assert.equal(pre.cwd, repo);
    assert.equal(pre.model, 'test-model');
    const post = JSON.parse(readFileSync(join(repo, 'post.json'), 'utf8'));
    assert.equal(post.hook_event_name, 'PostToolUse');
    assert.match(post.tool_response, /Process exited with code 0/);
    assert.ok(
      !existsSync(join(repo, 'never.txt')),
      'a hook whose matcher does not take the tool does not run',
    );

    const runs = completedRuns(server, turnId);
    assert.deepEqual(
      runs.map((r) => [r.eventName, r.status]),
      [
        ['preToolUse', 'completed'],
        ['postToolUse', 'completed'],
      ],
    );
    assert.equal(server.notifications('hook/started').length, 2);
    assert.match(server.stderr, /hook PreToolUse .*: completed; exit 0 .*pre-hook-says-hi \[redacted\]/);
    assert.ok(!server.stderr.includes(TEST_KEY), 'a secret a hook prints stays out of the log');
  });

  it('blocks a tool call on exit code 2 or a deny, and fails closed on an answer it cannot read', async () => {
    const cases: [string, RegExp][] = [
      ['echo "no writes today" >&2; exit 2', /no writes today/],
      [
        `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied by policy"}}'`,
        /denied by policy/,
      ],
      [`echo '{"decision": "maybe"}'`, /unusable output \(\W+decision\W+ must be/],
      [
        `echo '{"permissionDecision": "deny"'`,
        /unusable output \(its output starts like JSON but does not parse\)/,
      ],
      [
        `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}'`,
        /unusable output/,
      ],
    ];
    let server: ServerProcess | undefined;
    for (const [i, [command, told]] of cases.entries()) {
      writeFileSync(join(home, 'hooks.json'), JSON.stringify({ hooks: hooksJson('PreToolUse', command) }));
      const ran = await turn(execCall({ cmd: `echo ${i} > ran-${i}.txt` }), server);
      server = ran.server;
      assert.equal(ran.status, 'completed', command);
      assert.ok(!existsSync(join(repo, `ran-${i}.txt`)), `blocked: ${command}`);
      assert.match(bodyText(model.requests.at(-1)!), told, command);
      const [run] = completedRuns(server, ran.turnId);
      assert.equal(run!.status, 'blocked', command);
    }
  });

  it('reports a failing and a timed-out hook, and the turn still ends', async () => {
    configure(
      hookToml('PostToolUse', 'echo "lint failed" >&2; exit 3'),
      hookToml('Stop', 'sleep 30', { timeout: 1 }),
    );
    const began = Date.now();
    const { server, turnId, status } = await turn(execCall({ cmd: 'echo ok > ok.txt' }));
    assert.equal(status, 'completed');
    assert.ok(Date.now() - began < 25_000, 'the timed-out hook was killed, not waited for');
    assert.ok(existsSync(join(repo, 'ok.txt')));
    const runs = completedRuns(server, turnId);
    assert.deepEqual(
      runs.map((r) => [r.eventName, r.status, r.entries.map((e) => e.kind)]),
      [
        ['postToolUse', 'failed', ['error']],
        ['stop', 'failed', ['error']],
      ],
    );
    assert.match(runs[0]!.entries[0]!.text, /exited with code 3: lint failed/);
    assert.match(runs[1]!.entries[0]!.text, /timed out after 1s/);
    assert.match(server.stderr, /WARN hook Stop .*: failed; exit \d+ \(timed out\)/);
    // The model was not told of a failed PostToolUse hook: only a block is feedback.
    assert.doesNotMatch(bodyText(model.requests.at(-1)!), /lint failed/);
  });

  it('lets a Stop hook send the model back once, with its reason', async () => {
    configure(
      hookToml(
        'Stop',
        `if grep -q '"stop_hook_active":true'; then exit 0; fi; echo '{"decision":"block","reason":"run the tests too"}'`,
      ),
    );
    const { server, turnId, status } = await turn([
      { output: [{ text: 'First.' }] },
      { output: [{ text: 'Tested.' }] },
    ]);
    assert.equal(status, 'completed');
    assert.equal(model.requests.length, 2);
    assert.match(bodyText(model.requests[1]!), /A Stop hook asks you to continue: run the tests too/);
    assert.deepEqual(
      completedRuns(server, turnId).map((r) => r.status),
      ['blocked', 'completed'],
    );
  });

  it('gives the model what SessionStart (first turn only) and UserPromptSubmit hooks print; a refused prompt never reaches it', async () => {
    configure(
      hookToml('SessionStart', 'echo "this repo uses pnpm"'),
      hookToml(
        'UserPromptSubmit',
        'if grep -q forbidden; then echo "no secrets in prompts" >&2; exit 2; fi; echo "ticket ABC-1"',
      ),
    );
    model.script({ output: [{ text: 'One.' }] }, { output: [{ text: 'Two.' }] });
    const server = await start(home, 'threadline_vscode', agentEnv);
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', { cwd: repo });
    const run = async (prompt: string) =>
      turnCompleted(server, (await startTurn(server, thread.id, prompt)).id);
    assert.equal((await run('hello')).status, 'completed');
    assert.match(bodyText(model.requests[0]!), /this repo uses pnpm.*ticket ABC-1/);
    assert.equal((await run('again')).status, 'completed');
    const second = bodyText(model.requests[1]!);
    assert.equal(
      second.split('this repo uses pnpm').length - 1,
      1,
      'SessionStart ran on the first turn only',
    );
    assert.equal(second.split('ticket ABC-1').length - 1, 2, 'UserPromptSubmit ran on each turn');

    const refused = await run('a forbidden prompt');
    assert.equal(refused.status, 'failed');
    assert.match(
      refused.error!.message,
      /A UserPromptSubmit hook refused this prompt: no secrets in prompts/,
    );
    assert.equal(model.requests.length, 2, 'the refused prompt was not sent');
    const [opening] = server
      .notifications('hook/completed')
      .map((m) => (m.params as { run: { scope: string } }).run);
    assert.equal(opening!.scope, 'thread');
  });

  it("confines a hook to the thread's sandbox", async () => {
    const outside = realpathSync(tempDir('threadline-hook-outside-'));
    configure(hookToml('Stop', `echo inside > inside.txt; echo escaped > ${join(outside, 'escaped.txt')}`));
    const { server, turnId, status } = await turn([{ output: [{ text: 'Hi.' }] }]);
    assert.equal(status, 'completed');
    assert.equal(readFileSync(join(repo, 'inside.txt'), 'utf8'), 'inside\n');
    assert.ok(!existsSync(join(outside, 'escaped.txt')), 'nothing written outside the writable roots');
    const [run] = completedRuns(server, turnId);
    assert.equal(run!.status, 'failed');
    assert.match(run!.entries[0]!.text, /Read-only file system|Permission denied/);
  });

  it('does not run a hook where the sandbox it needs is missing, and says so', async () => {
    configure(hookToml('Stop', 'touch unconfined.txt'));
    const { server, turnId, status } = await turn([{ output: [{ text: 'Hi.' }] }], undefined, {
      THREADLINE_BWRAP: '/nonexistent/bwrap',
    });
    assert.equal(status, 'completed');
    assert.ok(!existsSync(join(repo, 'unconfined.txt')));
    const [run] = completedRuns(server, turnId);
    assert.equal(run!.status, 'failed');
    assert.match(run!.entries[0]!.text, /no sandbox available .*so it did not run/);
  });
});

/** hooks.json's `hooks` value: one group of one command handler. */
function hooksJson(event: string, command: string) {
  return { [event]: [{ hooks: [{ type: 'command', command, timeout: 20 }] }] };
}
