import { strict as assert } from 'node:assert';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { serverBundle } from '../support/paths';
import { WsClient, startWsServer } from '../support/wsServer';

describe('app-server over WebSocket', () => {
  let server: Awaited<ReturnType<typeof startWsServer>>;
  const clients: WsClient[] = [];
  const connect = async (name: string) => {
    const client = await WsClient.connect(server.url, server.token);
    clients.push(client);
    await client.initialize({ name });
    return client;
  };

  before(async () => {
    server = await startWsServer();
  });

  afterEach(() => {
    for (const client of clients.splice(0)) {
      client.assertSchemaClean();
      client.close();
    }
  });

  after(() => stop(server.child));

  it('answers /healthz and /readyz on the same port', async () => {
    const health = await fetch(`${server.http}/healthz`);
    assert.equal(health.status, 200);
    assert.equal((await health.text()).trim(), 'ok');
    // Ready once the thread store is open, which happens just after the server starts listening.
    const deadline = Date.now() + 5000;
    let ready = await fetch(`${server.http}/readyz`);
    while (ready.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ready = await fetch(`${server.http}/readyz`);
    }
    assert.equal(ready.status, 200);
    assert.equal((await fetch(`${server.http}/elsewhere`)).status, 426);
  });

  it('gives each connection its own handshake', async () => {
    const first = await connect('first');
    const second = await WsClient.connect(server.url, server.token);
    clients.push(second);
    assert.deepEqual((await second.request('thread/list', {})).error, {
      code: -32600,
      message: 'Not initialized',
    });
    await second.initialize({ name: 'second' });
    assert.equal(
      (await first.request('initialize', { clientInfo: { name: 'x', version: '1' } })).error?.message,
      'Already initialized',
    );
  });

  it('sends thread events only to subscribed connections', async () => {
    const owner = await connect('threadline_vscode');
    const other = await connect('threadline_vscode');
    const { thread } = await owner.call<{ thread: { id: string } }>('thread/start', {});
    await owner.notification('thread/started');
    await owner.call('thread/name/set', { threadId: thread.id, name: 'only mine' });
    await owner.notification('thread/name/updated');
    await other.call('thread/loaded/list');
    assert.equal(other.notifications('thread/started').length, 0);
    assert.equal(other.notifications('thread/name/updated').length, 0);

    await other.call('thread/resume', { threadId: thread.id, excludeTurns: true });
    await owner.call('thread/name/set', { threadId: thread.id, name: 'now shared' });
    await other.notification('thread/name/updated', (p) => p.threadName === 'now shared');

    assert.deepEqual(await owner.call('thread/unsubscribe', { threadId: thread.id }), {
      status: 'unsubscribed',
    });
    assert.deepEqual(await owner.call('thread/unsubscribe', { threadId: thread.id }), {
      status: 'notSubscribed',
    });
    assert.equal(owner.notifications('thread/closed').length, 0, 'still loaded for the other connection');
    await other.call('thread/unsubscribe', { threadId: thread.id });
    await other.notification('thread/closed');
  });

  it('answers malformed and binary frames and keeps the connection', async () => {
    const client = await connect('frames');
    client.socket.send('{"id": 1, "method": ');
    assert.equal((await client.next((m) => m.id === null)).error?.code, -32700);
    client.socket.send(Buffer.from('{"id":2,"method":"thread/list"}'), { binary: true });
    assert.match(
      (await client.next((m) => m.id === null && m.error?.code === -32600)).error!.message,
      /text frames/,
    );
    assert.ok(await client.call('thread/loaded/list'));
  });

  it('forgets a connection that closes, and keeps serving the others', async () => {
    const leaving = await connect('leaving');
    await leaving.call('thread/start', {});
    leaving.close();
    const staying = await connect('staying');
    assert.ok(await staying.call('thread/list'));
  });

  it('refuses a non-loopback address unless told otherwise', () => {
    const refused = spawnSync(process.execPath, [serverBundle, 'app-server', '--listen', 'ws://0.0.0.0:0'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /refusing to listen on non-loopback address 0\.0\.0\.0.*--allow-remote/);
  });
});

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
