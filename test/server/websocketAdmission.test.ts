import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverBundle } from '../support/paths';
import { tempDir } from '../support/serverProcess';
import { WsClient, handshake, startWsServer, stopWsServer, type WsServer } from '../support/wsServer';

describe('WebSocket handshakes a web page or a stranger cannot pass', () => {
  const dirs: string[] = [];
  const servers: WsServer[] = [];
  const start = async (listen: string, args: string[] = []) => {
    const server = await startWsServer(listen, args);
    servers.push(server);
    return server;
  };
  const tokenFile = (token: string) => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir, 'token');
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    return file;
  };

  afterEach(async () => {
    await Promise.all(servers.splice(0).map(stopWsServer));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a browser Origin, lets in a native client and a named origin', async () => {
    const server = await start('ws://127.0.0.1:0', ['--allow-origin', 'https://ok.example']);
    const bearer = { Authorization: `Bearer ${server.token}` };
    assert.equal(await handshake(server.url, { ...bearer, Origin: 'https://evil.example' }), 403);
    assert.equal(await handshake(server.url, { ...bearer, Origin: 'null' }), 403);
    assert.equal(await handshake(server.url, { ...bearer, Origin: 'https://ok.example' }), 101);
    assert.equal(await handshake(server.url, bearer), 101);
    assert.match(server.stderr(), /refused a WebSocket handshake .*origin https:\/\/evil\.example/);
    // The refused pages got no session: the server still serves a real client.
    const client = await WsClient.connect(server.url, server.token);
    try {
      await client.initialize({ name: 'native' });
      assert.ok(await client.call('thread/list', {}));
    } finally {
      client.close();
    }
  });

  it('refuses a Host that is not its own address (DNS rebinding)', async () => {
    const server = await start('ws://127.0.0.1:0');
    const { port } = new URL(server.url);
    const bearer = { Authorization: `Bearer ${server.token}` };
    assert.equal(await handshake(server.url, { ...bearer, Host: `evil.example:${port}` }), 403);
    assert.equal(await handshake(server.url, { ...bearer, Host: 'evil.example' }), 403);
    assert.equal(await handshake(server.url, { ...bearer, Host: `127.0.0.1:${Number(port) + 1}` }), 403);
    assert.equal(await handshake(server.url, { ...bearer, Host: `localhost:${port}` }), 101);
    assert.equal(await handshake(server.url, { ...bearer, Host: `127.0.0.1:${port}` }), 101);
  });

  it('requires a bearer token whenever --allow-remote is given', async () => {
    const refused = spawnSync(
      process.execPath,
      [serverBundle, 'app-server', '--listen', 'ws://0.0.0.0:0', '--allow-remote'],
      { encoding: 'utf8', timeout: 10_000, env: { ...process.env, THREADLINE_HOME: tempDirFor(dirs) } },
    );
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /--allow-remote needs --auth-token-file/);

    const token = randomBytes(24).toString('hex');
    const server = await start('ws://0.0.0.0:0', ['--allow-remote', '--auth-token-file', tokenFile(token)]);
    assert.match(server.url, /^ws:\/\/0\.0\.0\.0:\d+$/);
    const url = server.url.replace('0.0.0.0', '127.0.0.1');
    assert.equal(await handshake(url), 401);
    assert.equal(await handshake(url, { Authorization: `Bearer ${token}x` }), 401);
    assert.equal(await handshake(url, { Authorization: `Basic ${token}` }), 401);
    assert.equal(await handshake(url, { Authorization: `Bearer ${token}` }), 101);
    assert.equal((await fetch(`${url.replace(/^ws:/, 'http:')}/healthz`)).status, 200, '/healthz stays open');
  });

  it('checks the token on loopback too, and refuses a short or missing token file', async () => {
    const token = randomBytes(24).toString('base64url');
    const server = await start('ws://127.0.0.1:0', ['--auth-token-file', tokenFile(token)]);
    assert.equal(await handshake(server.url), 401);
    assert.equal(await handshake(server.url, { Authorization: `Bearer ${token}` }), 101);
    for (const file of [tokenFile('short'), '/nonexistent/token']) {
      const result = spawnSync(
        process.execPath,
        [serverBundle, 'app-server', '--listen', 'ws://127.0.0.1:0', '--auth-token-file', file],
        { encoding: 'utf8', timeout: 10_000, env: { ...process.env, THREADLINE_HOME: tempDirFor(dirs) } },
      );
      assert.equal(result.status, 1);
      assert.match(result.stderr, /--auth-token-file/);
    }
  });
});

function tempDirFor(dirs: string[]): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}
