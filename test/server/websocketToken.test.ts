// The WebSocket listener's token, attacked from where an attacker really is: a local program
// without the token, a command the server itself ran (unsandboxed, with the token read from its
// file), and a sandboxed command with network on driven by a scripted model (which can reach the
// port but must not read the token, and must be refused even with it). Each attacker, once in,
// would run `command/exec` under dangerFullAccess to write a canary outside the workspace.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, turnCompleted } from '../support/agent';
import { commandItems, execCall, gitRepo } from '../support/commands';
import { tempDir } from '../support/tempDirs';
import { until } from '../support/until';
import { WsClient, handshake, startWsServer, stopWsServer, type WsServer } from '../support/wsServer';

/**
 * Connects to the listener without a token, with the token file's, and with `token`; whichever
 * gets in asks for a dangerFullAccess command that writes the canary.
 */
const probeSource = `
const { WebSocket } = require(${JSON.stringify(require.resolve('ws'))});
const fs = require('node:fs');
const [url, token, tokenFile, canary] = process.argv.slice(2);
let fromFile = '';
try {
  fromFile = fs.readFileSync(tokenFile, 'utf8').trim();
  console.log('READ token file');
} catch (error) {
  console.log('UNREADABLE token file ' + error.code);
}
function attempt(name, bearer) {
  return new Promise((done) => {
    const socket = new WebSocket(url, bearer ? { headers: { Authorization: 'Bearer ' + bearer } } : {});
    socket.on('error', (error) => { console.log('REFUSED ' + name + ': ' + error.message); done(); });
    socket.on('open', () => {
      console.log('OPEN ' + name);
      socket.send(JSON.stringify({ id: 1, method: 'initialize', params: { clientInfo: { name: 'x', version: '1' } } }));
      socket.send(JSON.stringify({ method: 'initialized' }));
      socket.send(JSON.stringify({ id: 2, method: 'command/exec', params: {
        command: ['sh', '-c', 'echo pwned > "$0"', canary], sandboxPolicy: { type: 'dangerFullAccess' } } }));
    });
    socket.on('message', (data) => { if (JSON.parse(String(data)).id === 2) { socket.close(); done(); } });
  });
}
(async () => {
  const health = await fetch(url.replace('ws:', 'http:') + '/healthz').then((r) => r.status, (e) => e.message);
  console.log('HEALTH ' + health);
  await attempt('none', '');
  await attempt('file', fromFile);
  await attempt('real', token);
})();
`;

/**
 * Sends the handshake (with the token) and the frames of a dangerFullAccess command/exec in one
 * go, and exits at once: by the time the server checks who connected, perhaps nobody holds the
 * socket any more.
 */
const hitAndRunSource = `
const net = require('node:net');
const { randomBytes } = require('node:crypto');
const [url, token, canary] = process.argv.slice(2);
const { hostname, port } = new URL(url);
const frame = (message) => {
  const payload = Buffer.from(JSON.stringify(message));
  const mask = randomBytes(4);
  const length = payload.length < 126 ? Buffer.from([0x80 | payload.length]) : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 255]);
  return Buffer.concat([Buffer.from([0x81]), length, mask, payload.map((byte, i) => byte ^ mask[i % 4])]);
};
const socket = net.connect(Number(port), hostname, () => {
  socket.write(['GET / HTTP/1.1', 'Host: ' + hostname + ':' + port, 'Connection: Upgrade', 'Upgrade: websocket',
    'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: ' + randomBytes(16).toString('base64'),
    'Authorization: Bearer ' + token, '', ''].join('\\r\\n'));
  socket.write(Buffer.concat([
    frame({ id: 1, method: 'initialize', params: { clientInfo: { name: 'x', version: '1' } } }),
    frame({ method: 'initialized' }),
    frame({ id: 2, method: 'command/exec', params: { command: ['sh', '-c', 'echo pwned > "$0"', canary], sandboxPolicy: { type: 'dangerFullAccess' } } }),
  ]), () => process.exit(0));
});
`;

describe('the WebSocket listener token', function () {
  this.timeout(30_000);
  const model = useModelServer();
  const servers: WsServer[] = [];
  const clients: WsClient[] = [];
  const start = async (...args: Parameters<typeof startWsServer>) => {
    const server = await startWsServer(...args);
    servers.push(server);
    return server;
  };
  const connect = async (server: WsServer) => {
    const client = await WsClient.connect(server.url, server.token);
    clients.push(client);
    await client.initialize({ name: 'threadline_tests' });
    return client;
  };

  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await Promise.all(servers.splice(0).map(stopWsServer));
  });

  /** A probe script, a canary path outside everything, and the argv that runs the probe. */
  function attacker(server: WsServer, dir = tempDir('threadline-probe-')) {
    writeFileSync(join(dir, 'probe.js'), probeSource);
    const canary = join(tempDir('threadline-outside-'), 'canary');
    const argv = [
      process.execPath,
      join(dir, 'probe.js'),
      server.url,
      server.token,
      server.tokenFile!,
      canary,
    ];
    return { canary, argv };
  }

  it('makes a token at each start: refused without it; the printed one and the file’s let in, for fs/* and fuzzyFileSearch too', async () => {
    const server = await start('ws://127.0.0.1:0', [], { env: { THREADLINE_LOG: 'debug' } });
    const { port } = new URL(server.url);
    assert.equal(server.tokenFile, join(server.home, 'listeners', `ws-${port}.token`));
    assert.equal(readFileSync(server.tokenFile, 'utf8'), `${server.token}\n`);
    assert.ok(server.token.length >= 32);
    if (process.platform !== 'win32') {
      assert.equal(statSync(server.tokenFile).mode & 0o777, 0o600);
      assert.equal(statSync(join(server.home, 'listeners')).mode & 0o777, 0o700);
    }

    assert.equal(await handshake(server.url), 401);
    assert.equal(await handshake(server.url, { Authorization: `Bearer ${server.token.slice(1)}` }), 401);
    assert.equal(await handshake(server.url, { Authorization: `Bearer ${server.token}` }), 101);
    await assert.rejects(WsClient.connect(server.url, 'not-the-token'), /Unexpected server response: 401/);

    // Past the token, a client reads files and searches them: the control that the refusal above
    // is what keeps a stranger from fs/readFile and fuzzyFileSearch.
    const folder = tempDir('threadline-files-');
    writeFileSync(join(folder, 'notes.txt'), 'private notes');
    const client = await connect(server);
    const read = await client.call<{ dataBase64: string }>('fs/readFile', {
      path: join(folder, 'notes.txt'),
    });
    assert.equal(Buffer.from(read.dataBase64, 'base64').toString(), 'private notes');
    const found = await client.call<{ files: { path: string }[] }>('fuzzyFileSearch', {
      query: 'notes',
      roots: [folder],
    });
    assert.deepEqual(
      found.files.map((f) => f.path),
      ['notes.txt'],
    );

    // The stderr line for a human is the only place the token is written: a log line that would
    // carry it (an ignored notification is logged by name) has it redacted.
    client.send({ method: server.token });
    await until(() => server.stderr().includes('ignored notification [listener token]'));
    assert.equal(server.stderr().split(server.token).length - 1, 1, server.stderr());

    const file = server.tokenFile;
    await stopWsServer(servers.pop()!);
    assert.ok(!existsSync(file), 'the token file is removed when the server stops');
    const again = await start('ws://127.0.0.1:0');
    assert.notEqual(again.token, server.token);
    assert.equal(await handshake(again.url, { Authorization: `Bearer ${server.token}` }), 401);
  });

  it('refuses a process the server started, even with the right token (command/exec, unsandboxed)', async () => {
    const server = await start();
    const client = await connect(server);
    const { canary, argv } = attacker(server);
    const result = await client.call<{ exitCode: number; stdout: string; stderr: string }>('command/exec', {
      command: argv,
      sandboxPolicy: { type: 'dangerFullAccess' },
    });
    const output = result.stdout + result.stderr;
    assert.match(output, /^READ token file$/m, 'unsandboxed, it can read the file');
    assert.match(output, /^HEALTH 200$/m, 'and it reaches the port');
    assert.match(output, /^REFUSED none: Unexpected server response: 401$/m);
    assert.match(output, /^REFUSED file: Unexpected server response: 403$/m, output);
    assert.match(output, /^REFUSED real: Unexpected server response: 403$/m);
    assert.doesNotMatch(output, /^OPEN/m);
    assert.ok(!existsSync(canary), 'the canary outside the workspace was written');
    assert.match(
      server.stderr(),
      /refused a WebSocket handshake .*: the connection comes from process \d+, which this server started/,
    );
    // The client that started it is still served.
    assert.ok(await client.call('thread/loaded/list'));
  });

  it('refuses a process of its own that sends its requests and exits before the check', async () => {
    const server = await start();
    const client = await connect(server);
    const dir = tempDir('threadline-probe-');
    writeFileSync(join(dir, 'hit.js'), hitAndRunSource);
    const canary = join(tempDir('threadline-outside-'), 'canary');
    for (let round = 0; round < 5; round++) {
      await client.call('command/exec', {
        command: [process.execPath, join(dir, 'hit.js'), server.url, server.token, canary],
        sandboxPolicy: { type: 'dangerFullAccess' },
      });
    }
    await until(() => (server.stderr().match(/refused a WebSocket handshake/g) ?? []).length === 5).catch(
      () => assert.fail(server.stderr()),
    );
    // Whatever the server found (the process still there, or the socket already orphaned), it refused.
    assert.match(
      server.stderr(),
      /which this server started|already closed its end|cannot tell which process/,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(!existsSync(canary), 'the canary outside the workspace was written');
  });

  it('a sandboxed command with network on reaches the port but cannot read the token, nor get in with it', async () => {
    const server = await start('ws://127.0.0.1:0', [], {
      home: agentHome('responses', model.baseUrl),
      env: agentEnv,
    });
    const client = await connect(server);
    const repo = gitRepo();
    // In the workspace: a sandboxed command has a /tmp of its own.
    const { canary, argv } = attacker(server, repo);
    model.script(...execCall({ cmd: argv.map((arg) => `'${arg}'`).join(' ') }));
    const { thread } = await client.call<{ thread: { id: string } }>('thread/start', {
      cwd: repo,
      approvalPolicy: 'never',
      sandbox: 'workspace-write',
    });
    const turn = await startTurn(client, thread.id, 'probe', {
      sandboxPolicy: { type: 'workspaceWrite', writableRoots: [], networkAccess: true },
    });
    await turnCompleted(client, turn.id, 20_000);
    const [item] = commandItems(client, turn.id);
    const output = item?.aggregatedOutput ?? '';
    assert.match(output, /^UNREADABLE token file ENOENT$/m, output);
    assert.match(output, /^HEALTH 200$/m, 'network on: the port is reachable');
    assert.match(output, /^REFUSED none: Unexpected server response: 401$/m);
    assert.match(output, /^REFUSED file: Unexpected server response: 401$/m);
    assert.match(output, /^REFUSED real: Unexpected server response: 403$/m, 'refused even with the token');
    assert.doesNotMatch(output, /^OPEN/m);
    assert.ok(!existsSync(canary), 'the canary outside the workspace was written');
    assert.ok(existsSync(server.tokenFile!), 'the file is there, only hidden from the sandbox');
  });
});
