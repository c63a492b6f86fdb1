// exec_command end to end: the real server runs the commands the scripted model asks for, in temp
// git repositories, confined by bubblewrap, with approvals answered by the test as a client would.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, turnCompleted } from '../support/agent';
import { commandItems, execCall, gitRepo } from '../support/commands';
import { tempDir, useServers } from '../support/serverProcess';

const bodyText = (request: { body: unknown }) => JSON.stringify(request.body);

describe('exec_command', function () {
  this.timeout(30_000);
  const model = useModelServer();
  const start = useServers();
  const serve = (env: Record<string, string> = {}) =>
    start(agentHome('responses', model.baseUrl), 'threadline_vscode', { ...agentEnv, ...env });

  async function thread(
    server: Awaited<ReturnType<typeof serve>>,
    cwd: string,
    extra: Record<string, unknown> = {},
  ) {
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      cwd,
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
      ...extra,
    });
    return thread.id;
  }

  it('runs a command, streams its output into a commandExecution item and reports it to the model', async () => {
    const repo = gitRepo();
    model.script(...execCall({ cmd: 'cat README.md && echo second line >&2' }));
    const server = await serve();
    const threadId = await thread(server, repo);
    const turn = await startTurn(server, threadId, 'Read the readme');
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    const [item] = commandItems(server, turn.id);
    assert.equal(item!.status, 'completed');
    assert.equal(item!.exitCode, 0);
    assert.equal(item!.cwd, repo);
    assert.equal(item!.source, 'agent');
    assert.match(item!.aggregatedOutput!, /# demo/);
    assert.match(item!.aggregatedOutput!, /second line/);
    assert.ok(typeof item!.durationMs === 'number');
    assert.deepEqual(item!.commandActions, [
      { type: 'read', command: 'cat README.md', name: 'README.md', path: 'README.md' },
      { type: 'unknown', command: 'echo second line' },
    ]);
    const deltas = server
      .notifications('item/commandExecution/outputDelta')
      .map((m) => (m.params as { delta: string }).delta)
      .join('');
    assert.equal(deltas, item!.aggregatedOutput);
    const second = bodyText(model.requests[1]!);
    assert.match(second, /Process exited with code 0/);
    assert.match(second, /# demo/);
    assert.match(bodyText(model.requests[0]!), /exec_command/);
    assert.match(bodyText(model.requests[0]!), /write_stdin/);
  });

  describe('in the sandbox', () => {
    let listener: Server;
    let port = 0;
    before(async () => {
      listener = createServer((socket) => socket.end());
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      port = (listener.address() as { port: number }).port;
    });
    after(() => listener.close());

    const probeNetwork = () =>
      `${process.execPath} -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',(e)=>{console.log('NETERR '+e.code);process.exit(3)})"`;

    async function runIn(sandbox: string, cmd: string) {
      const repo = gitRepo();
      model.script(...execCall({ cmd }));
      const server = await serve();
      const threadId = await thread(server, repo, { sandbox });
      const turn = await startTurn(server, threadId, 'go');
      await turnCompleted(server, turn.id);
      const [item] = commandItems(server, turn.id);
      return { repo, item: item! };
    }

    it('workspaceWrite writes inside the workspace only, keeps .git read-only and has no network', async () => {
      const outside = tempDir('threadline-outside-');
      const { repo, item } = await runIn(
        'workspace-write',
        `echo inside > inside.txt; touch ${outside}/escaped; touch .git/hooked; ${probeNetwork()}`,
      );
      assert.equal(readFileSync(join(repo, 'inside.txt'), 'utf8'), 'inside\n');
      assert.equal(existsSync(join(outside, 'escaped')), false, 'wrote outside the workspace');
      assert.equal(existsSync(join(repo, '.git', 'hooked')), false, 'wrote into .git');
      assert.match(item.aggregatedOutput!, /Read-only file system/);
      assert.match(item.aggregatedOutput!, /NETERR/);
      assert.doesNotMatch(item.aggregatedOutput!, /CONNECTED/);
      assert.equal(item.exitCode, 3);
      assert.equal(item.status, 'failed');
    });

    it('readOnly cannot write at all', async () => {
      const { repo, item } = await runIn('read-only', 'echo x > inside.txt; cat README.md');
      assert.equal(existsSync(join(repo, 'inside.txt')), false);
      assert.match(item.aggregatedOutput!, /Read-only file system/);
      assert.match(item.aggregatedOutput!, /# demo/);
    });

    it('dangerFullAccess writes anywhere and reaches the network', async () => {
      const outside = tempDir('threadline-outside-');
      const { item } = await runIn('danger-full-access', `touch ${outside}/written && ${probeNetwork()}`);
      assert.equal(existsSync(join(outside, 'written')), true);
      assert.match(item.aggregatedOutput!, /CONNECTED/);
      assert.equal(item.exitCode, 0);
    });
  });

  it('kills the whole process group when the turn is interrupted', async () => {
    const repo = gitRepo();
    const marker = `${Date.now() % 100000}.5`;
    model.script(
      ...execCall({ cmd: `echo started; sleep ${marker} & sleep ${marker}; wait`, yield_time_ms: 30_000 }),
    );
    const server = await serve();
    const threadId = await thread(server, repo);
    const turn = await startTurn(server, threadId, 'Run it');
    await server.notification('item/commandExecution/outputDelta');
    const running = () => {
      try {
        return execFileSync('pgrep', ['-f', `^sleep ${marker}$`], { encoding: 'utf8' })
          .trim()
          .split('\n').length;
      } catch {
        return 0;
      }
    };
    // Both sleeps start just after the echo.
    for (let tries = 0; running() < 2 && tries < 100; tries++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(running(), 2);
    await server.call('turn/interrupt', { threadId, turnId: turn.id });
    assert.equal((await turnCompleted(server, turn.id)).status, 'interrupted');
    assert.equal(running(), 0, 'a sleep outlived the interrupt');
    const [item] = commandItems(server, turn.id);
    assert.equal(item!.status, 'failed');
    assert.match(item!.aggregatedOutput!, /started/);
  });

  it('keeps a long-running command as a session that write_stdin feeds', async () => {
    const repo = gitRepo();
    model.script(
      {
        output: [
          {
            toolCall: {
              name: 'exec_command',
              arguments: JSON.stringify({
                cmd: 'echo ready; read line; echo got:$line',
                yield_time_ms: 300,
                tty: true,
              }),
              callId: 'c1',
            },
          },
        ],
      },
      {
        output: [
          {
            toolCall: {
              name: 'write_stdin',
              arguments: JSON.stringify({ session_id: 1, chars: 'hello\n', yield_time_ms: 2000 }),
              callId: 'c2',
            },
          },
        ],
      },
      { output: [{ text: 'Fed it.' }] },
    );
    const server = await serve();
    const threadId = await thread(server, repo);
    const turn = await startTurn(server, threadId, 'Talk to it');
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    const [first, poll] = commandItems(server, turn.id);
    assert.equal(first!.processId, '1');
    assert.equal(first!.exitCode, null);
    assert.match(first!.aggregatedOutput!, /ready/);
    assert.equal(poll!.source, 'unifiedExecInteraction');
    assert.equal(poll!.exitCode, 0);
    assert.match(poll!.aggregatedOutput!, /got:hello/);
    assert.match(bodyText(model.requests[1]!), /Process running with session ID 1/);
    assert.match(bodyText(model.requests[1]!), /no terminal \(PTY\)/);
    assert.match(bodyText(model.requests[2]!), /got:hello/);
    assert.match(bodyText(model.requests[2]!), /Process exited with code 0/);
  });
});
