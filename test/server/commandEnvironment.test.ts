// What environment commands see, through the real server on every path that starts one: the
// model's exec_command (in bubblewrap), a client's command/exec and the user's thread/shellCommand.
// The server is started with twenty credential and IPC variables in its environment, as the VS Code
// extension host would hand it; config.toml's shell_environment_policy changes what gets through.
import { strict as assert } from 'node:assert';
import { appendFileSync } from 'node:fs';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startThread, startTurn, turnCompleted } from '../support/agent';
import { commandItems, execCall, gitRepo } from '../support/commands';
import type { ServerProcess } from '../support/serverProcess';
import { useServers } from '../support/serverProcess';
import { LEAKY } from '../support/leakyEnv';

/** `env -0` output as a map (values may hold newlines). */
const parseEnv = (text: string) =>
  Object.fromEntries(
    text
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );

describe('the environment commands get', function () {
  this.timeout(30_000);
  const model = useModelServer();
  const start = useServers();

  async function serve(policyToml = '') {
    const home = agentHome('responses', model.baseUrl);
    const repo = gitRepo();
    if (policyToml) appendFileSync(`${home}/config.toml`, `\n[shell_environment_policy]\n${policyToml}\n`);
    const server = await start(home, 'threadline_vscode', {
      ...agentEnv,
      ...LEAKY,
      MY_SETTING: 'kept',
      NODE_ENV: 'test',
    });
    return { server, repo };
  }

  /** The model runs `env -0` in the sandbox; its output, parsed. */
  async function viaExecCommand(server: ServerProcess, repo: string) {
    model.script(...execCall({ cmd: 'env -0' }));
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      cwd: repo,
      approvalPolicy: 'never',
      sandbox: 'workspace-write',
    });
    const turn = await startTurn(server, thread.id, 'env');
    await turnCompleted(server, turn.id);
    const [item] = commandItems(server, turn.id);
    assert.equal(item!.exitCode, 0, item!.aggregatedOutput ?? '');
    return parseEnv(item!.aggregatedOutput!);
  }

  async function viaCommandExec(server: ServerProcess, repo: string) {
    const result = await server.call<{ stdout: string }>('command/exec', {
      command: ['env', '-0'],
      cwd: repo,
      sandboxPolicy: { type: 'readOnly', networkAccess: false },
    });
    return parseEnv(result.stdout);
  }

  async function viaShellCommand(server: ServerProcess, repo: string) {
    const threadId = await startThread(server, repo);
    await server.call('thread/shellCommand', { threadId, command: 'env -0' });
    const started = await server.notification('turn/started');
    const turnId = (started.params as { turn: { id: string } }).turn.id;
    await turnCompleted(server, turnId);
    return parseEnv(commandItems(server, turnId)[0]!.aggregatedOutput!);
  }

  const paths = {
    exec_command: viaExecCommand,
    'command/exec': viaCommandExec,
    'thread/shellCommand': viaShellCommand,
  };

  for (const [path, run] of Object.entries(paths)) {
    it(`${path}: none of the twenty credential and IPC variables, only the core ones`, async () => {
      const { server, repo } = await serve();
      const env = await run(server, repo);
      const leaked = Object.keys(env).filter((name) => name in LEAKY || name === 'SCRIPTED_API_KEY');
      assert.deepEqual(leaked, []);
      assert.equal(env.MY_SETTING, undefined, 'not a core variable');
      // Bash may rework PATH (it reads ~/.bashrc when its stdin is a socket, as node's pipes are).
      assert.match(env.PATH ?? '', /(^|:)\/usr\/bin(:|$)/);
      assert.equal(env.HOME, process.env.HOME);
      assert.equal(env.PWD, repo);
    });
  }

  it('inherit = "all" with ignore_default_excludes passes them on, except the provider keys; exclude and set apply', async () => {
    const { server, repo } = await serve(
      'inherit = "all"\nignore_default_excludes = true\nexclude = ["node_*"]\nset = { CI = "1" }',
    );
    for (const run of [viaExecCommand, viaCommandExec, viaShellCommand]) {
      const env = await run(server, repo);
      const providerKeys = ['SCRIPTED_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'];
      assert.deepEqual(
        providerKeys.filter((name) => name in env),
        [],
        `${run.name}: a provider key reached the command`,
      );
      assert.equal(env.GH_PAT, LEAKY.GH_PAT, run.name);
      assert.equal(env.VSCODE_IPC_HOOK_CLI, LEAKY.VSCODE_IPC_HOOK_CLI, run.name);
      assert.equal(env.MY_SETTING, 'kept', run.name);
      assert.equal(env.NODE_ENV, undefined, `${run.name}: exclude`);
      assert.equal(env.CI, '1', `${run.name}: set`);
    }
  });

  it('include_only narrows even the core set', async () => {
    const { server, repo } = await serve('include_only = ["PATH", "PW?"]');
    assert.deepEqual(Object.keys(await viaCommandExec(server, repo)).sort(), ['PATH', 'PWD']);
  });
});
