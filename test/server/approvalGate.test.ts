// Issue 16's attacks (and issue 29's `printf -v`) through the real server, the scripted model and
// real bubblewrap: under `untrusted` every hostile line asks (the test declines, then checks the disk), plain read-only
// commands still run without asking, a session yes on a pipeline allows that line only, the user's
// rules refuse or ask, and a patch to the editor's settings always asks.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedResponse } from '../fixtures/modelServer/scenario';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, turnCompleted } from '../support/agent';
import { answer, commandItems, gitRepo, serverRequest } from '../support/commands';
import { patchCall } from '../support/patches';
import { tempDir, useServers } from '../support/serverProcess';
import { unlessWine, WINE_BASH_ONLY } from '../support/underWine';

const APPROVAL = 'item/commandExecution/requestApproval';
const FILE_APPROVAL = 'item/fileChange/requestApproval';

// The lines, each of which ran without asking before and created a file.
const HOSTILE = [
  'echo hi\ntouch pwned-newline',
  'bash -lc "echo hi\ntouch pwned-inner"',
  'echo hi\r\ntouch pwned-crlf',
  'echo a#b; touch pwned-hash',
  'ls -- "$(touch pwned-subst)"',
  'echo "${X:-$(touch pwned-default)}"',
  'find . {-exec,} touch pwned-brace \\;',
  'find . ${X:--exec} touch pwned-expansion \\;',
  'git grep --open-files-in-pager="touch pwned-pager;" -e demo',
  'git grep -O"touch pwned-pager-short;" -e demo',
  './cat README.md',
  'node_modules/.bin/ls',
  // Issue 29: a builtin that assigns before the next command runs (a planted ./ls, ./cat).
  "printf -v 'a[$(touch pwned-subscript)]' y",
  'printf -v PATH . ; ls',
  "printf -v 'BASH_CMDS[ls]' ./cat; ls",
  'printf -v HOME . ; git status',
];

const READ_ONLY = [
  'ls',
  'cat README.md',
  'git status',
  'git log -1 --oneline',
  'head -n 1 README.md',
  'wc -l README.md',
  'grep -n demo README.md',
  "printf '%s\\n' a",
  "printf '%s\\n' a; ls",
];

/** One model turn that runs each command in turn (a new request after each result), then answers. */
const execCalls = (commands: string[]): ScriptedResponse[] => [
  ...commands.map((cmd, i) => ({
    output: [{ toolCall: { name: 'exec_command', arguments: JSON.stringify({ cmd }), callId: `call_${i}` } }],
  })),
  { output: [{ text: 'Done.' }] },
];

describe('the approval gate against the issue 16 attacks', function () {
  this.timeout(60_000);
  const model = useModelServer();
  const start = useServers();
  const newHome = () => agentHome('responses', model.baseUrl);

  async function setUp(approvalPolicy: string, home = newHome(), sandbox = 'workspace-write') {
    const repo = gitRepo();
    // Look-alikes of readers, as a cloned repository can ship them.
    for (const fake of ['cat', 'ls', 'node_modules/.bin/ls']) {
      mkdirSync(join(repo, fake, '..'), { recursive: true });
      writeFileSync(join(repo, fake), '#!/bin/sh\ntouch pwned-look-alike\n');
      chmodSync(join(repo, fake), 0o755);
    }
    const server = await start(home, 'threadline_vscode', agentEnv);
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      cwd: repo,
      approvalPolicy,
      sandbox,
    });
    return { repo, server, threadId: thread.id, home };
  }

  it('asks before every hostile line of the issue; declined, none of them touches the disk', async () => {
    const { repo, server, threadId } = await setUp('untrusted');
    const before = readdirSync(repo).sort();
    model.script(...execCalls(HOSTILE));
    const turn = await startTurn(server, threadId, 'Attack');
    for (const [i, line] of HOSTILE.entries()) {
      const request = await serverRequest(server, APPROVAL, i);
      assert.equal((request.params as { command: string }).command, line);
      answer(server, request, { decision: 'decline' });
    }
    assert.equal((await turnCompleted(server, turn.id, 30_000)).status, 'completed');
    assert.deepEqual(readdirSync(repo).sort(), before);
    assert.deepEqual(
      commandItems(server, turn.id).map((item) => item.status),
      HOSTILE.map(() => 'declined'),
    );
  });

  it('runs plain read-only commands without asking (asking for everything is not a fix)', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const { server, threadId } = await setUp('untrusted');
    model.script(...execCalls(READ_ONLY));
    const turn = await startTurn(server, threadId, 'Look around');
    assert.equal((await turnCompleted(server, turn.id, 30_000)).status, 'completed');
    assert.equal(server.received.filter((m) => m.method === APPROVAL).length, 0);
    const items = commandItems(server, turn.id);
    assert.deepEqual(
      items.map((item) => [item.command, item.status, item.exitCode]),
      READ_ONLY.map((command) => [command, 'completed', 0]),
    );
  });

  it('asks before a known-safe git that runs on the host: the repository config could run a program', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const { repo, server, threadId } = await setUp('untrusted', newHome(), 'danger-full-access');
    const canary = join(tempDir(), 'fsmonitor-ran');
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${canary}; false`], { cwd: repo });
    model.script(...execCalls(['git status', 'ls']));
    const turn = await startTurn(server, threadId, 'Look around');
    const request = await serverRequest(server, APPROVAL);
    assert.equal((request.params as { command: string }).command, 'git status');
    assert.match((request.params as { reason: string }).reason, /core\.fsmonitor/);
    answer(server, request, { decision: 'decline' });
    assert.equal((await turnCompleted(server, turn.id, 30_000)).status, 'completed');
    assert.deepEqual(
      commandItems(server, turn.id).map((item) => [item.command, item.status]),
      [
        ['git status', 'declined'],
        ['ls', 'completed'],
      ],
    );
    assert.equal(existsSync(canary), false);
  });

  it('a session yes on `cat setup.sh | bash` allows that line again, not `bash -c` of anything', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const { repo, server, threadId } = await setUp('untrusted');
    writeFileSync(join(repo, 'setup.sh'), 'echo set up\n');
    model.script(...execCalls(['cat setup.sh | bash', 'cat setup.sh | bash', "bash -c 'touch pwned'"]));
    const turn = await startTurn(server, threadId, 'Set up');
    answer(server, await serverRequest(server, APPROVAL), { decision: 'acceptForSession' });
    const second = await serverRequest(server, APPROVAL, 1);
    assert.equal((second.params as { command: string }).command, "bash -c 'touch pwned'");
    answer(server, second, { decision: 'decline' });
    await turnCompleted(server, turn.id, 30_000);
    const items = commandItems(server, turn.id);
    assert.deepEqual(
      items.map((item) => item.status),
      ['completed', 'completed', 'declined'],
    );
    assert.match(items[1]!.aggregatedOutput ?? '', /set up/);
    assert.equal(existsSync(join(repo, 'pwned')), false);
  });

  it('refuses what a single-quoted forbidden rule matches and tells the model; a prompt rule asks', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const home = newHome();
    mkdirSync(join(home, 'rules'));
    writeFileSync(
      join(home, 'rules', 'team.rules'),
      [
        "prefix_rule(pattern=['touch'], decision='forbidden', justification='no new files here')",
        'prefix_rule(pattern=["git", "status"], decision="prompt")',
      ].join('\n'),
    );
    // Under on-request both would run in the sandbox without asking, were it not for the rules.
    const { repo, server, threadId } = await setUp('on-request', home);
    model.script(...execCalls(['touch forbidden.txt', 'git status']));
    const turn = await startTurn(server, threadId, 'Go');
    const asked = await serverRequest(server, APPROVAL);
    assert.equal((asked.params as { command: string }).command, 'git status');
    assert.match(String((asked.params as { reason: string }).reason), /rules say to ask/);
    answer(server, asked, { decision: 'decline' });
    await turnCompleted(server, turn.id, 30_000);
    assert.equal(server.received.filter((m) => m.method === APPROVAL).length, 1);
    assert.equal(existsSync(join(repo, 'forbidden.txt')), false);
    const [touch] = commandItems(server, turn.id);
    assert.equal(touch!.status, 'declined');
    assert.match(JSON.stringify(model.requests[1]!.body), /forbidden by the user's rules: no new files here/);
  });

  it('an allowed prefix takes an escalated run outside the sandbox only when it covers every command, and says so', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const home = newHome();
    mkdirSync(join(home, 'rules'));
    writeFileSync(join(home, 'rules', 'default.rules'), 'prefix_rule(pattern=["touch"], decision="allow")\n');
    const { server, threadId } = await setUp('on-request', home);
    const outside = tempDir('threadline-outside-');
    const escalated = (cmd: string) => ({ cmd, sandbox_permissions: 'require_escalated' });
    model.script(
      {
        output: [
          {
            toolCall: { name: 'exec_command', arguments: JSON.stringify(escalated(`touch ${outside}/one`)) },
          },
        ],
      },
      {
        output: [
          {
            toolCall: {
              name: 'exec_command',
              arguments: JSON.stringify(escalated(`touch ${outside}/two && cat ${outside}/one`)),
              callId: 'call_2',
            },
          },
        ],
      },
      { output: [{ text: 'Done.' }] },
    );
    const turn = await startTurn(server, threadId, 'Outside');
    // Outside the sandbox a reader does not ride along: the second line asks.
    const asked = await serverRequest(server, APPROVAL);
    assert.match((asked.params as { command: string }).command, /two && cat/);
    answer(server, asked, { decision: 'decline' });
    await turnCompleted(server, turn.id, 30_000);
    assert.equal(server.received.filter((m) => m.method === APPROVAL).length, 1);
    // bubblewrap gives the sandbox its own /tmp: the file is there only because it ran outside.
    assert.equal(existsSync(join(outside, 'one')), true);
    assert.equal(existsSync(join(outside, 'two')), false);
    const [first] = commandItems(server, turn.id);
    assert.match(first!.aggregatedOutput ?? '', /runs outside the sandbox/);
    assert.match(JSON.stringify(model.requests[1]!.body), /ran outside the sandbox/);
  });

  for (const [policy, outcome] of [
    ['on-request', 'asks'],
    ['never', 'is refused'],
  ] as const) {
    it(`a patch to .vscode/settings.json ${outcome} under ${policy}, though the workspace is writable`, async () => {
      const { repo, server, threadId } = await setUp(policy);
      const patch = [
        '*** Begin Patch',
        '*** Add File: .vscode/settings.json',
        '+{ "threadline.approvalPolicy": "never" }',
        '*** End Patch',
      ].join('\n');
      model.script(patchCall(patch), { output: [{ text: 'Done.' }] });
      const turn = await startTurn(server, threadId, 'Configure');
      if (policy === 'on-request') {
        const request = await serverRequest(server, FILE_APPROVAL);
        assert.match(String((request.params as { reason: string }).reason), /settings that govern the agent/);
        answer(server, request, { decision: 'decline' });
      }
      await turnCompleted(server, turn.id, 30_000);
      assert.equal(existsSync(join(repo, '.vscode', 'settings.json')), false);
      if (policy === 'never') {
        assert.equal(server.received.filter((m) => m.method === FILE_APPROVAL).length, 0);
        assert.match(
          JSON.stringify(model.requests[1]!.body),
          /apply_patch refused: the patch writes settings/,
        );
      }
    });
  }
});
