// fs/watch and fs/unwatch over real stdio on real files: a change in a temp folder (deep in its tree
// too) arrives as fs/changed naming the watch and the changed path, a burst of writes is gathered
// into few reports, unwatch stops them, and bad paths, ids and too many watches are refused.
import { strict as assert } from 'node:assert';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { maxWatchedFolders, maxWatchesPerConnection } from '../../server/fs/watches';
import { tempDir, useServers } from '../support/serverProcess';
import { until } from '../support/until';
import { startWsServer, stopWsServer, WsClient, type WsServer } from '../support/wsServer';

type Changed = { watchId: string; changedPaths: string[] };

describe('fs/watch and fs/unwatch', () => {
  const start = useServers();
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('reports a change under a watched folder as fs/changed, and nothing after fs/unwatch', async () => {
    const server = await start();
    const dir = realpathSync(tempDir('threadline-watch-'));
    mkdirSync(join(dir, 'sub', 'deep'), { recursive: true });
    assert.deepEqual(await server.call('fs/watch', { path: dir, watchId: 'w1' }), { path: dir });

    const file = join(dir, 'sub', 'deep', 'note.txt');
    const seen = server.notification(
      'fs/changed',
      (params) => params.watchId === 'w1' && (params.changedPaths as string[]).includes(file),
    );
    writeFileSync(file, 'first');
    await seen;

    // A burst of writes is gathered: far fewer reports than writes.
    const before = server.notifications('fs/changed').length;
    const last = server.notification('fs/changed', (params) =>
      (params.changedPaths as string[]).includes(join(dir, 'burst-19.txt')),
    );
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, `burst-${i}.txt`), String(i));
    await last;
    const burst = server.notifications('fs/changed').length - before;
    assert.ok(burst < 20, `20 writes made ${burst} reports`);

    assert.deepEqual(await server.call('fs/unwatch', { watchId: 'w1' }), {});
    await pause(300);
    const count = server.notifications('fs/changed').length;
    writeFileSync(file, 'after unwatch');
    writeFileSync(join(dir, 'new.txt'), 'after unwatch');
    await pause(600);
    assert.equal(server.notifications('fs/changed').length, count, 'a report came after fs/unwatch');

    const again = await server.request('fs/unwatch', { watchId: 'w1' });
    assert.equal(again.error?.code, -32600);
    assert.match(again.error!.message, /No watch w1/);
  });

  it('watches a single file by its canonical path', async () => {
    const server = await start();
    const dir = realpathSync(tempDir('threadline-watch-'));
    const file = join(dir, 'one.txt');
    writeFileSync(file, 'a');
    const { path } = await server.call<{ path: string }>('fs/watch', {
      path: join(dir, '.', 'one.txt'),
      watchId: 'file',
    });
    assert.equal(path, file);
    const seen = server.notification('fs/changed', (params) => params.watchId === 'file');
    writeFileSync(file, 'b');
    const changed = (await seen).params as Changed;
    assert.deepEqual(changed.changedPaths, [file]);
  });

  it('refuses relative and missing paths, bad ids, duplicates and too many watches', async () => {
    const server = await start();
    const dir = realpathSync(tempDir('threadline-watch-'));

    const relative = await server.request('fs/watch', { path: 'some/dir', watchId: 'r' });
    assert.equal(relative.error?.code, -32602);
    assert.match(relative.error!.message, /path: expected an absolute path, got "some\/dir"/);
    assert.equal((await server.request('fs/watch', { path: dir })).error?.code, -32602);
    assert.equal((await server.request('fs/watch', { path: dir, watchId: 7 })).error?.code, -32602);
    assert.equal((await server.request('fs/unwatch', {})).error?.code, -32602);

    const missing = join(dir, 'missing');
    const gone = await server.request('fs/watch', { path: missing, watchId: 'm' });
    assert.equal(gone.error?.code, -32600);
    assert.equal(gone.error!.message, `Cannot watch ${missing}: no such file or directory`);

    await server.call('fs/watch', { path: dir, watchId: 'same' });
    const twice = await server.request('fs/watch', { path: dir, watchId: 'same' });
    assert.equal(twice.error?.code, -32600);
    assert.match(twice.error!.message, /Watch same already exists/);

    for (let i = 1; i < maxWatchesPerConnection; i++) {
      mkdirSync(join(dir, `d${i}`));
      await server.call('fs/watch', { path: join(dir, `d${i}`), watchId: `w${i}` });
    }
    const tooMany = await server.request('fs/watch', { path: dir, watchId: 'one-more' });
    assert.equal(tooMany.error?.code, -32600);
    assert.match(tooMany.error!.message, /Too many watches/);
    await server.call('fs/unwatch', { watchId: 'w1' });
    await server.call('fs/watch', { path: dir, watchId: 'one-more' });
    // Still serving other methods after every refusal.
    assert.ok(await server.call('fs/readDirectory', { path: dir }));
  });

  it('refuses a tree of more folders than a connection may watch, where each folder costs a watch', async function () {
    if (process.platform !== 'linux') this.skip();
    const server = await start();
    const dir = realpathSync(tempDir('threadline-watch-'));
    for (let i = 0; i < maxWatchedFolders; i++) mkdirSync(join(dir, `f${i}`));
    const refused = await server.request('fs/watch', { path: dir, watchId: 'big' });
    assert.equal(refused.error?.code, -32600);
    assert.equal(
      refused.error!.message,
      `Cannot watch ${dir}: it has more than ${maxWatchedFolders} folders, the most a connection may watch; watch a smaller folder`,
    );
    // One of its folders is fine.
    await server.call('fs/watch', { path: join(dir, 'f0'), watchId: 'small' });
  });

  describe('over WebSocket, per connection', () => {
    let server: WsServer | undefined;
    const clients: WsClient[] = [];
    afterEach(async () => {
      for (const client of clients.splice(0)) {
        client.assertSchemaClean();
        client.close();
      }
      if (server) await stopWsServer(server);
      server = undefined;
    });

    it('keeps watch ids and reports to their own connection, and ends its watches when it closes', async () => {
      server = await startWsServer('ws://127.0.0.1:0', [], { env: { THREADLINE_LOG: 'debug' } });
      const connect = async () => {
        const client = await WsClient.connect(server!.url, server!.token);
        clients.push(client);
        await client.initialize();
        return client;
      };
      const [first, second] = [await connect(), await connect()];
      const dir = realpathSync(tempDir('threadline-watch-'));
      // The same id on two connections is two watches.
      await first.call('fs/watch', { path: dir, watchId: 'w' });
      await second.call('fs/watch', { path: dir, watchId: 'w' });
      const file = join(dir, 'shared.txt');
      const hasFile = (params: Record<string, unknown>) => (params.changedPaths as string[]).includes(file);
      const both = [first.notification('fs/changed', hasFile), second.notification('fs/changed', hasFile)];
      writeFileSync(file, 'one');
      await Promise.all(both);

      await first.call('fs/unwatch', { watchId: 'w' });
      await pause(300);
      const firstCount = first.notifications('fs/changed').length;
      const later = join(dir, 'later.txt');
      const seen = second.notification('fs/changed', (params) =>
        (params.changedPaths as string[]).includes(later),
      );
      writeFileSync(later, 'two');
      await seen;
      await pause(300);
      assert.equal(
        first.notifications('fs/changed').length,
        firstCount,
        'the unwatched connection got a report',
      );

      second.close();
      await until(() => /connection \d+ closed: ended 1 file watch\(es\)/.test(server!.stderr()));
      assert.ok(await first.call('fs/readDirectory', { path: dir }), 'the other connection still served');
    });
  });
});
