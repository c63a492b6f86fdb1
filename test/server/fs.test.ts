// fs/* over real stdio on real files: base64 round trips of binary data, directories, metadata,
// copies and removals, and the errors a client gets for relative paths, missing files, permission
// failures and bad base64 — with the server still serving afterwards.
import { strict as assert } from 'node:assert';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { tempDir, useServers } from '../support/serverProcess';
import { unlessWine } from '../support/underWine';

describe('fs/* methods', () => {
  const start = useServers();

  it('writes and reads binary files as base64, byte for byte', async () => {
    const server = await start();
    const dir = tempDir();
    const bytes = Buffer.from([0, 255, 10, 13, 0x80, 0x7f, 1, 2, 3]);
    const path = join(dir, 'blob.bin');
    assert.deepEqual(await server.call('fs/writeFile', { path, dataBase64: bytes.toString('base64') }), {});
    assert.deepEqual(readFileSync(path), bytes);
    writeFileSync(path, Buffer.concat([bytes, Buffer.from('tail')]));
    const read = await server.call<{ dataBase64: string }>('fs/readFile', { path });
    assert.deepEqual(Buffer.from(read.dataBase64, 'base64'), Buffer.concat([bytes, Buffer.from('tail')]));
  });

  it('creates directories, lists them sorted with kinds, and reports metadata', async () => {
    const server = await start();
    const dir = tempDir();
    const nested = join(dir, 'a', 'b', 'c');
    await server.call('fs/createDirectory', { path: nested });
    assert.ok(existsSync(nested));
    const refused = await server.request('fs/createDirectory', {
      path: join(dir, 'x', 'y'),
      recursive: false,
    });
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error!.message, /^Cannot create directory .*x\/y: no such file or directory$/);

    writeFileSync(join(dir, 'a', 'z.txt'), 'z');
    assert.deepEqual(await server.call('fs/readDirectory', { path: join(dir, 'a') }), {
      entries: [
        { fileName: 'b', isDirectory: true, isFile: false },
        { fileName: 'z.txt', isDirectory: false, isFile: true },
      ],
    });

    const when = new Date('2024-05-06T07:08:09.000Z');
    utimesSync(join(dir, 'a', 'z.txt'), when, when);
    const file = await server.call<Record<string, unknown>>('fs/getMetadata', {
      path: join(dir, 'a', 'z.txt'),
    });
    assert.equal(file.isFile, true);
    assert.equal(file.isDirectory, false);
    assert.equal(file.isSymlink, false);
    assert.equal(file.modifiedAtMs, when.getTime());
    assert.ok(Number.isInteger(file.createdAtMs));
  });

  it('lists and describes symbolic links as links, and copies them as links', async function () {
    unlessWine(this, 'Wine 8 shows a Unix symbolic link as what it points to, a dangling one not at all');
    const server = await start();
    const dir = tempDir();
    mkdirSync(join(dir, 'a', 'b', 'deep'), { recursive: true });
    writeFileSync(join(dir, 'a', 'b', 'deep', 'f.txt'), 'hello');
    symlinkSync(join(dir, 'a', 'b'), join(dir, 'a', 'link-to-dir'));
    symlinkSync(join(dir, 'missing'), join(dir, 'a', 'dangling'));
    symlinkSync('deep/f.txt', join(dir, 'a', 'b', 'rel-link'));
    assert.deepEqual(await server.call('fs/readDirectory', { path: join(dir, 'a') }), {
      entries: [
        { fileName: 'b', isDirectory: true, isFile: false },
        { fileName: 'dangling', isDirectory: false, isFile: false },
        { fileName: 'link-to-dir', isDirectory: true, isFile: false },
      ],
    });
    const link = await server.call<Record<string, unknown>>('fs/getMetadata', {
      path: join(dir, 'a', 'link-to-dir'),
    });
    assert.deepEqual([link.isSymlink, link.isDirectory, link.isFile], [true, true, false]);
    await server.call('fs/copy', {
      sourcePath: join(dir, 'a', 'b'),
      destinationPath: join(dir, 'copy'),
      recursive: true,
    });
    assert.equal(readlinkSync(join(dir, 'copy', 'rel-link')), 'deep/f.txt');
  });

  it('copies files and trees and removes them', async () => {
    const server = await start();
    const dir = tempDir();
    mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
    writeFileSync(join(dir, 'src', 'deep', 'f.txt'), 'hello');

    await server.call('fs/copy', {
      sourcePath: join(dir, 'src', 'deep', 'f.txt'),
      destinationPath: join(dir, 'one.txt'),
    });
    assert.equal(readFileSync(join(dir, 'one.txt'), 'utf8'), 'hello');

    const needsRecursive = await server.request('fs/copy', {
      sourcePath: join(dir, 'src'),
      destinationPath: join(dir, 'dst'),
    });
    assert.equal(needsRecursive.error?.code, -32602);
    assert.match(needsRecursive.error!.message, /is a directory; set recursive/);
    assert.ok(!existsSync(join(dir, 'dst')));

    await server.call('fs/copy', {
      sourcePath: join(dir, 'src'),
      destinationPath: join(dir, 'dst'),
      recursive: true,
    });
    assert.equal(readFileSync(join(dir, 'dst', 'deep', 'f.txt'), 'utf8'), 'hello');

    const notEmpty = await server.request('fs/remove', { path: join(dir, 'dst'), recursive: false });
    assert.equal(notEmpty.error?.code, -32600);
    assert.match(notEmpty.error!.message, /directory not empty/);
    assert.ok(existsSync(join(dir, 'dst', 'deep', 'f.txt')), 'a refused removal removes nothing');

    await server.call('fs/remove', { path: join(dir, 'dst') });
    assert.ok(!existsSync(join(dir, 'dst')));
    // force defaults to true: a missing path is fine; with force false it is an error.
    assert.deepEqual(await server.call('fs/remove', { path: join(dir, 'dst') }), {});
    const missing = await server.request('fs/remove', { path: join(dir, 'dst'), force: false });
    assert.match(missing.error!.message, /no such file or directory/);
    const root = await server.request('fs/remove', { path: '/' });
    assert.equal(root.error?.code, -32602);
  });

  it('answers relative paths, missing files, permission failures and bad base64 with clear errors', async () => {
    const server = await start();
    const dir = tempDir();
    for (const [method, params, field] of [
      ['fs/readFile', { path: 'relative/file.txt' }, 'path'],
      ['fs/writeFile', { path: './x', dataBase64: '' }, 'path'],
      ['fs/copy', { sourcePath: join(dir, 'a'), destinationPath: 'b' }, 'destinationPath'],
    ] as const) {
      const response = await server.request(method, params);
      assert.equal(response.error?.code, -32602, method);
      assert.match(response.error!.message, new RegExp(`${field}: expected an absolute path`));
    }

    const missing = await server.request('fs/readFile', { path: join(dir, 'nope.txt') });
    assert.equal(missing.error?.code, -32600);
    assert.equal(missing.error?.message, `Cannot read ${join(dir, 'nope.txt')}: no such file or directory`);
    assert.deepEqual(missing.error?.data, { code: 'ENOENT', path: join(dir, 'nope.txt') });

    const isDir = await server.request('fs/readFile', { path: dir });
    assert.match(isDir.error!.message, /is a directory$/);

    const path = join(dir, 'keep.txt');
    writeFileSync(path, 'precious');
    const garbage = await server.request('fs/writeFile', { path, dataBase64: 'not base64!!' });
    assert.equal(garbage.error?.code, -32602);
    assert.equal(readFileSync(path, 'utf8'), 'precious', 'a refused write loses no data');

    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked');
      mkdirSync(locked);
      writeFileSync(join(locked, 'secret.txt'), 's');
      chmodSync(locked, 0o000);
      try {
        const denied = await server.request('fs/readFile', { path: join(locked, 'secret.txt') });
        assert.match(denied.error!.message, /permission denied$/);
        assert.equal((denied.error?.data as { code: string }).code, 'EACCES');
      } finally {
        chmodSync(locked, 0o700);
      }
    }
    assert.ok(server.alive);
    assert.deepEqual(await server.call('fs/readFile', { path }), {
      dataBase64: Buffer.from('precious').toString('base64'),
    });
  });
});
