// command/exec and its follow-ups, thread/shellCommand and thread/backgroundTerminals/clean,
// through the real server process; every message checked against the reference schema.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, runTurn, startThread, startTurn, turnCompleted } from '../support/agent';
import { commandItems, execCall, gitRepo } from '../support/commands';
import { ServerProcess, tempDir, useServers } from '../support/serverProcess';

const full = { type: 'dangerFullAccess' };
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('command/exec', function () {
  this.timeout(30_000);
  const start = useServers();

  it('runs an argv and answers with its exit code, stdout and stderr', async () => {
    const server = await start();
    const result = await server.call('command/exec', {
      command: ['sh', '-c', 'echo out; echo err >&2; exit 3'],
      sandboxPolicy: full,
    });
    assert.deepEqual(result, { exitCode: 3, stdout: 'out\n', stderr: 'err\n' });
  });

  it('rejects an empty argv, a PTY, resize, and streaming without a processId', async () => {
    const server = await start();
    const error = async (method: string, params: unknown) => (await server.request(method, params)).error!;
    assert.equal((await error('command/exec', { command: [] })).code, -32602);
    const tty = await error('command/exec', { command: ['ls'], tty: true, processId: 'p' });
    assert.deepEqual([tty.code, /PTY not supported/.test(tty.message)], [-32602, true]);
    const resize = await error('command/exec/resize', { processId: 'p', size: { cols: 80, rows: 24 } });
    assert.deepEqual([resize.code, /PTY not supported/.test(resize.message)], [-32602, true]);
    assert.equal((await error('command/exec', { command: ['ls'], streamStdoutStderr: true })).code, -32602);
    assert.equal((await error('command/exec/terminate', { processId: 'nothing' })).code, -32600);
  });

  it('feeds stdin and streams output as base64 deltas, then answers without duplicating it', async () => {
    const server = await start();
    const response = server.request('command/exec', {
      command: ['cat'],
      processId: 'cat-1',
      streamStdin: true,
      streamStdoutStderr: true,
      sandboxPolicy: full,
    });
    await server.call('command/exec/write', { processId: 'cat-1', deltaBase64: b64('hello\n') });
    const delta = await server.notification('command/exec/outputDelta');
    assert.deepEqual(delta.params, {
      processId: 'cat-1',
      stream: 'stdout',
      deltaBase64: b64('hello\n'),
      capReached: false,
    });
    await server.call('command/exec/write', { processId: 'cat-1', closeStdin: true });
    assert.deepEqual((await response).result, { exitCode: 0, stdout: '', stderr: '' });
  });

  it('terminates a process, and times one out', async () => {
    const server = await start();
    const started = Date.now();
    const response = server.request('command/exec', {
      command: ['sleep', '30'],
      processId: 'sleeper',
      sandboxPolicy: full,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(await server.call('command/exec/terminate', { processId: 'sleeper' }), {});
    assert.equal(((await response).result as { exitCode: number }).exitCode, 137);
    const timedOut = await server.call<{ exitCode: number }>('command/exec', {
      command: ['sleep', '30'],
      timeoutMs: 300,
      sandboxPolicy: full,
    });
    assert.equal(timedOut.exitCode, 137);
    assert.ok(Date.now() - started < 10_000);
  });

  it('caps output per stream, and says where the cap was reached when streaming', async () => {
    const server = await start();
    const capped = await server.call('command/exec', {
      command: ['sh', '-c', 'printf 0123456789; printf abc >&2'],
      outputBytesCap: 4,
      sandboxPolicy: full,
    });
    assert.deepEqual(capped, { exitCode: 0, stdout: '0123', stderr: 'abc' });
    await server.call('command/exec', {
      command: ['printf', '0123456789'],
      processId: 'p',
      streamStdoutStderr: true,
      outputBytesCap: 4,
      sandboxPolicy: full,
    });
    const deltas = server
      .notifications('command/exec/outputDelta')
      .map((m) => m.params as Record<string, unknown>);
    assert.deepEqual(deltas, [
      { processId: 'p', stream: 'stdout', deltaBase64: b64('0123'), capReached: true },
    ]);
  });

  it('confines by the sandbox policy, passes env overrides, and keeps secrets out', async () => {
    const repo = gitRepo();
    const outside = tempDir('threadline-outside-');
    const server = await start(undefined, 'threadline_vscode', { MY_API_KEY: 'sk-secret' });
    const result = await server.call<{ stdout: string; stderr: string }>('command/exec', {
      command: ['sh', '-c', `echo x > inside; touch ${outside}/f; echo $FOO; echo \${MY_API_KEY:-none}`],
      cwd: repo,
      env: { FOO: 'bar' },
      sandboxPolicy: { type: 'workspaceWrite' },
    });
    assert.equal(existsSync(join(repo, 'inside')), true);
    assert.equal(existsSync(join(outside, 'f')), false);
    assert.equal(result.stdout, 'bar\nnone\n');
    // Its /tmp is a private one: the outside folder is not even there.
    assert.match(result.stderr, /cannot touch/);
  });

  it('under a sandbox policy, makes no .vscode at the top and moves a nested repository aside, saying so', async () => {
    const folder = tempDir('threadline-names-');
    const server = await start();
    const result = await server.call<{ exitCode: number; stderr: string }>('command/exec', {
      command: ['sh', '-c', 'mkdir .vscode; git init -q sub; echo done'],
      cwd: folder,
      sandboxPolicy: { type: 'workspaceWrite' },
    });
    assert.match(result.stderr, /cannot create directory .\.vscode.: File exists/);
    const nested = join(folder, 'sub', '.git');
    assert.ok(result.stderr.includes(`${nested} -> ${nested}.threadline-quarantine`), result.stderr);
    assert.deepEqual(readdirSync(folder), ['sub']);
  });
});

describe('thread commands', function () {
  this.timeout(30_000);
  const model = useModelServer();
  const start = useServers();

  it('thread/shellCommand runs unsandboxed as its own turn, and the model hears of it next turn', async () => {
    const repo = gitRepo();
    const outside = tempDir('threadline-outside-');
    const server = await start(agentHome('responses', model.baseUrl), 'threadline_vscode', agentEnv);
    const threadId = await startThread(server, repo);
    assert.deepEqual(
      await server.call('thread/shellCommand', {
        threadId,
        command: `touch ${outside}/mine && echo made it`,
      }),
      {},
    );
    const started = await server.notification('turn/started');
    const turnId = (started.params as { turn: { id: string } }).turn.id;
    assert.equal((await turnCompleted(server, turnId)).status, 'completed');
    const [item] = commandItems(server, turnId);
    assert.equal(item!.source, 'userShell');
    assert.equal(item!.aggregatedOutput, 'made it\n');
    assert.equal(existsSync(join(outside, 'mine')), true);
    assert.equal(model.requests.length, 0, 'a shell command asks no model');
    model.script({ output: [{ text: 'Noted.' }] });
    await runTurn(server, threadId, 'What did I run?');
    assert.match(JSON.stringify(model.requests[0]!.body), /The user ran a shell command/);
  });

  it('thread/shellCommand during a turn joins that turn, and the model hears of it in the same turn', async () => {
    const repo = gitRepo();
    const server = await start(agentHome('responses', model.baseUrl), 'threadline_vscode', agentEnv);
    const threadId = await startThread(server, repo);
    model.script(...execCall({ cmd: 'echo working; sleep 1' }, 'Seen it.'));
    const turn = await startTurn(server, threadId, 'Work');
    await server.notification('item/commandExecution/outputDelta');
    assert.deepEqual(
      await server.call('thread/shellCommand', { threadId, command: 'echo from the user' }),
      {},
    );
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    const items = commandItems(server, turn.id);
    assert.deepEqual(items.map((i) => i.source).sort(), ['agent', 'userShell']);
    assert.equal(server.notifications('turn/started').length, 1, 'no turn of its own');
    assert.match(JSON.stringify(model.requests[1]!.body), /from the user/);
  });

  it('thread/backgroundTerminals/clean is experimental and stops the sessions the model left running', async () => {
    const repo = gitRepo();
    const marker = `${Date.now() % 100000}.7`;
    const home = agentHome('responses', model.baseUrl);
    const plain = await start(home, 'threadline_vscode', agentEnv);
    const refused = await plain.request('thread/backgroundTerminals/clean', { threadId: 'x' });
    assert.match(refused.error!.message, /requires experimentalApi/);
    const server = ServerProcess.start({ home, env: agentEnv });
    try {
      await server.initialize({ experimentalApi: true, name: 'threadline_vscode' });
      const threadId = await startThread(server, repo);
      model.script(...execCall({ cmd: `sleep ${marker}`, yield_time_ms: 300 }));
      await runTurn(server, threadId, 'Start it');
      const sleeping = () => {
        try {
          return execFileSync('pgrep', ['-f', `^sleep ${marker}$`], { encoding: 'utf8' }).trim().length > 0;
        } catch {
          return false;
        }
      };
      assert.equal(sleeping(), true);
      assert.deepEqual(await server.call('thread/backgroundTerminals/clean', { threadId }), {});
      for (let tries = 0; sleeping() && tries < 50; tries++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(sleeping(), false);
    } finally {
      await server.stop();
    }
  });
});
