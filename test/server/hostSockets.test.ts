// A sandboxed command must not reach the host's sockets: Unix sockets in a folder outside the
// workspace and under $XDG_RUNTIME_DIR (where D-Bus, the ssh agent and VS Code's IPC hook live),
// an abstract Unix socket, and a TCP port on 127.0.0.1. Real bubblewrap, the real server, a
// scripted model and `approvalPolicy: never`, so only the sandbox stands in the way; the same probe
// under dangerFullAccess reaches every one of them, so the probe itself works. The sockets live
// under /tmp, which the sandbox shows as it is (excludeSlashTmp) so that nothing but the socket
// filter stands between the command and them: a private /tmp would hide them whatever it does.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { createServer, type ListenOptions, type Server } from 'node:net';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, turnCompleted } from '../support/agent';
import { commandItems, execCall, gitRepo } from '../support/commands';
import { tempDir, useServers } from '../support/serverProcess';
import { until } from '../support/until';

/** workspaceWrite with the host's /tmp visible. */
const workspaceWrite = (networkAccess: boolean) => ({
  type: 'workspaceWrite',
  writableRoots: [],
  networkAccess,
  excludeTmpdirEnvVar: false,
  excludeSlashTmp: true,
});

interface Target {
  name: string;
  to: { path: string } | { port: number; host: string };
}

const probeSource = (targets: Target[]) => `
const net = require('node:net');
const targets = ${JSON.stringify(targets)};
let left = targets.length;
for (const target of targets) {
  const socket = net.connect(target.to);
  const done = (line) => { console.log(line); socket.destroy(); if (--left === 0) process.exit(0); };
  socket.on('connect', () => done('REACHED ' + target.name));
  socket.on('error', (error) => done('BLOCKED ' + target.name + ' ' + error.code));
}
`;

describe('sandboxed commands and host sockets', function () {
  this.timeout(30_000);
  const model = useModelServer();
  const start = useServers();
  const listeners: Server[] = [];
  const connections = new Map<string, number>();
  let targets: Target[] = [];
  let runtimeDir = '';

  function listen(name: string, address: ListenOptions): Promise<Server> {
    connections.set(name, 0);
    const server = createServer((socket) => {
      connections.set(name, connections.get(name)! + 1);
      socket.on('error', () => {});
      socket.end('hello\n');
    });
    listeners.push(server);
    return new Promise((resolve) => server.listen(address, () => resolve(server)));
  }

  before(async () => {
    const outside = tempDir('threadline-host-');
    runtimeDir = tempDir('threadline-xdg-');
    const abstract = `\0threadline-test-${process.pid}`;
    await listen('outside', { path: join(outside, 'agent.sock') });
    await listen('runtime', { path: join(runtimeDir, 'bus') });
    await listen('abstract', { path: abstract });
    const tcp = await listen('tcp', { port: 0, host: '127.0.0.1' });
    targets = [
      { name: 'outside', to: { path: join(outside, 'agent.sock') } },
      { name: 'runtime', to: { path: join(runtimeDir, 'bus') } },
      { name: 'abstract', to: { path: abstract } },
      { name: 'tcp', to: { port: (tcp.address() as { port: number }).port, host: '127.0.0.1' } },
    ];
  });

  after(async () => {
    await Promise.all(listeners.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  beforeEach(() => {
    for (const name of connections.keys()) connections.set(name, 0);
  });

  async function probe(sandbox: string, extraCommand = '', sandboxPolicy?: Record<string, unknown>) {
    const repo = gitRepo();
    const home = agentHome('responses', model.baseUrl);
    writeFileSync(join(repo, 'probe.js'), probeSource(targets));
    model.script(...execCall({ cmd: `${process.execPath} probe.js${extraCommand}` }));
    const server = await start(home, 'threadline_vscode', {
      ...agentEnv,
      XDG_RUNTIME_DIR: runtimeDir,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(runtimeDir, 'bus')}`,
    });
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      cwd: repo,
      approvalPolicy: 'never',
      sandbox,
    });
    const turn = await startTurn(server, thread.id, 'probe', sandboxPolicy ? { sandboxPolicy } : {});
    await turnCompleted(server, turn.id);
    const [item] = commandItems(server, turn.id);
    return item!.aggregatedOutput ?? '';
  }

  const reached = (output: string) => [...output.matchAll(/^REACHED (\w+)/gm)].map((m) => m[1]).sort();
  const contacted = () =>
    [...connections]
      .filter(([, count]) => count > 0)
      .map(([name]) => name)
      .sort();

  it('without network: no host Unix socket (path or abstract) and no host TCP port, while git, node children and pipes work', async () => {
    const ordinary =
      ' && git status --porcelain && git log --oneline | wc -l | tr -d " " && ' +
      `${process.execPath} -e "require('child_process').execFileSync('echo', ['child ran'], { stdio: 'inherit' })"`;
    const output = await probe('workspace-write', ordinary, workspaceWrite(false));
    assert.deepEqual(reached(output), [], output);
    assert.deepEqual(contacted(), [], 'a host server got a connection');
    assert.match(output, /BLOCKED outside EPERM/);
    assert.match(output, /BLOCKED runtime EPERM/);
    assert.match(output, /^\?\? probe\.js$/m, 'git status');
    assert.match(output, /^1$/m, 'git log | wc');
    assert.match(output, /child ran/);
  });

  it('read-only is confined the same way', async () => {
    const output = await probe('read-only');
    assert.deepEqual(reached(output), [], output);
    assert.deepEqual(contacted(), []);
  });

  it('with network allowed, TCP reaches the host but Unix sockets still do not', async () => {
    const output = await probe('workspace-write', '', workspaceWrite(true));
    assert.deepEqual(reached(output), ['tcp'], output);
    await until(() => contacted().length > 0);
    assert.deepEqual(contacted(), ['tcp']);
  });

  it('command/exec under a workspaceWrite policy is held the same way', async () => {
    const repo = gitRepo();
    const home = tempDir('threadline-home-');
    writeFileSync(join(repo, 'probe.js'), probeSource(targets));
    const server = await start(home, 'threadline_vscode', { XDG_RUNTIME_DIR: runtimeDir });
    const { stdout } = await server.call<{ stdout: string }>('command/exec', {
      command: [process.execPath, 'probe.js'],
      cwd: repo,
      sandboxPolicy: workspaceWrite(false),
    });
    assert.deepEqual(reached(stdout), [], stdout);
    assert.equal(stdout.match(/^BLOCKED/gm)?.length, 4, stdout);
    assert.deepEqual(contacted(), []);
  });

  it('the same probe outside the sandbox (dangerFullAccess) reaches all four', async () => {
    const output = await probe('danger-full-access');
    assert.deepEqual(reached(output), ['abstract', 'outside', 'runtime', 'tcp'], output);
    await until(() => contacted().length === 4);
    assert.deepEqual(contacted(), ['abstract', 'outside', 'runtime', 'tcp']);
  });
});
