// The core's V8 code cache (server/cli/codeCache.ts), through a copy of the built server as an
// install holds it: where it is written and when, that a stale or damaged one is replaced once, and
// that a folder this user does not alone control is never trusted with it.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { repoRoot } from '../support/paths';
import { ServerProcess, tempDir } from '../support/serverProcess';

/** A copy of the server's bundles, as an installed extension holds them. */
function install(): string {
  const dist = join(tempDir('threadline-install-'), 'dist');
  mkdirSync(dist);
  for (const file of readdirSync(join(repoRoot, 'dist'))) {
    if (/^server.*\.js$|\.wasm$/.test(file)) copyFileSync(join(repoRoot, 'dist', file), join(dist, file));
  }
  return dist;
}

/** Starts the installed server, makes the handshake and a request, then ends its input at once. */
async function runOnce(dist: string, home = tempDir(), launcher?: string[]): Promise<void> {
  const server = await ServerProcess.started({ bundle: join(dist, 'server.js'), home, launcher });
  assert.equal(server.initializeResult?.codexHome, home);
  await server.call('thread/list', {});
  await server.stop();
  assert.deepEqual(await server.exited, { code: 0, signal: null }, server.stderr);
}

const caches = (folder: string) =>
  existsSync(folder) ? readdirSync(folder).filter((file) => file.endsWith('.v8')) : [];

/** The one cache file in `folder`. */
function theCache(folder: string): string {
  const files = caches(folder);
  assert.equal(files.length, 1, `cache files in ${folder}: ${files.join(', ')}`);
  return join(folder, files[0]!);
}

/** A cache file as codeCache.ts writes one: a CRC-32 of the V8 data, then the data. */
function withChecksum(data: Buffer): Buffer {
  const sum = Buffer.alloc(4);
  sum.writeUInt32LE(crc32(data));
  return Buffer.concat([sum, data]);
}

const identity = (file: string) => {
  const stat = statSync(file);
  return `${stat.ino}@${stat.mtimeMs}`;
};

describe('the core code cache', () => {
  it('is written beside the bundle as soon as initialize is answered, for this user only', async () => {
    const dist = install();
    const home = tempDir();
    await runOnce(dist, home);
    const file = theCache(join(dist, 'code-cache'));
    const escaped = process.versions.v8.replace(/[.+-]/g, '\\$&');
    assert.match(file, new RegExp(`server-core-${escaped}-[0-9a-f]{16}\\.v8$`));
    if (process.platform !== 'win32') {
      assert.equal(statSync(join(dist, 'code-cache')).mode & 0o777, 0o700);
      assert.equal(statSync(file).mode & 0o777, 0o600);
    }
    assert.ok(!existsSync(join(home, 'cache')), 'nothing in the home');

    // A fresh home starts from it, and V8 takes it: an unusable cache would be written again.
    const before = identity(file);
    await runOnce(dist);
    assert.equal(identity(file), before);
  });

  it('replaces a cache V8 turns down once, and removes the caches of other builds', async () => {
    const dist = install();
    await runOnce(dist);
    const folder = join(dist, 'code-cache');
    const file = theCache(folder);
    const name = file.slice(folder.length + 1);
    const otherBuild = join(folder, name.replace(/-[0-9a-f]{16}\.v8$/, '-0000000000000000.v8'));
    const otherNode = join(folder, name.replace(process.versions.v8, '1.2.3'));
    const planted = withChecksum(Buffer.from('not a code cache '.repeat(64)));
    writeFileSync(file, planted);
    writeFileSync(otherBuild, planted);
    writeFileSync(otherNode, planted);

    await runOnce(dist);
    assert.notDeepEqual(readFileSync(file), planted, 'replaced');
    assert.ok(!existsSync(otherBuild), "another build's cache is removed");
    assert.ok(existsSync(otherNode), "another Node's cache of this build stays");
    const replaced = identity(file);
    await runOnce(dist);
    assert.equal(identity(file), replaced, 'not replaced again');
  });

  it('is written by a server whose client ends its input with initialize, which opens nothing after', async () => {
    const dist = install();
    const home = tempDir();
    const server = ServerProcess.start({ bundle: join(dist, 'server.js'), home });
    const answer = server.request('initialize', { clientInfo: { name: 'probe', version: '1' } });
    server.child.stdin.end();
    assert.ok((await answer).result, server.stderr);
    assert.deepEqual(await server.exited, { code: 0, signal: null }, server.stderr);
    theCache(join(dist, 'code-cache'));
    // The warm-up after the handshake comes after the input's end: it must not open the store then.
    assert.deepEqual(readdirSync(home), []);
  });

  it('comes out whole when several servers start at once on a new install', async () => {
    const dist = install();
    await Promise.all([1, 2, 3, 4].map(() => runOnce(dist)));
    const folder = join(dist, 'code-cache');
    const file = readFileSync(theCache(folder));
    assert.equal(file.readUInt32LE(0), crc32(file.subarray(4)), 'one whole cache');
    assert.deepEqual(readdirSync(folder), caches(folder), 'no temp file left');
  });

  it('answers over a damaged cache and replaces it', async () => {
    const dist = install();
    await runOnce(dist);
    const file = theCache(join(dist, 'code-cache'));
    const good = readFileSync(file);
    // Bytes flipped inside V8's data: V8 checks its header only, and ran such a cache into a crash.
    const damaged = Buffer.from(good);
    damaged.fill(0xff, damaged.length >> 1, (damaged.length >> 1) + 8);
    writeFileSync(file, damaged);

    await runOnce(dist);
    const now = readFileSync(file);
    assert.notDeepEqual(now, damaged, 'replaced');
    assert.equal(now.readUInt32LE(0), crc32(now.subarray(4)));
  });

  it('is kept in the home when the install is read-only', async function () {
    const probe = spawnSync('bwrap', ['--bind', '/', '/', '--dev', '/dev', 'true']);
    if (probe.status !== 0) {
      console.log(`      skipped: bwrap cannot mount here (${probe.error?.message ?? probe.stderr})`);
      this.skip();
    }
    const dist = install();
    const home = tempDir();
    const readOnly = [
      'bwrap',
      '--bind',
      '/',
      '/',
      '--ro-bind',
      dist,
      dist,
      '--dev',
      '/dev',
      '--proc',
      '/proc',
    ];
    await runOnce(dist, home, readOnly);
    assert.ok(!existsSync(join(dist, 'code-cache')));
    const file = theCache(join(home, 'cache'));
    const before = identity(file);
    await runOnce(dist, home, readOnly);
    assert.equal(identity(file), before, 'read from the home on the next start');
  });

  it('is kept in the home when another user owns the install', async function () {
    if (process.getuid?.() !== 0) {
      console.log('      skipped: giving the install to another user needs root');
      this.skip();
    }
    const dist = install();
    chownSync(dist, 65534, 65534);
    const home = tempDir();
    await runOnce(dist, home);
    assert.ok(!existsSync(join(dist, 'code-cache')));
    theCache(join(home, 'cache'));
  });

  it('never reads a cache from a folder others may write into', async function () {
    if (process.platform === 'win32') this.skip(); // no POSIX modes
    const dist = install();
    await runOnce(dist);
    const folder = join(dist, 'code-cache');
    const file = theCache(folder);
    // Whoever can write the folder could have planted this one: it is neither run nor replaced.
    chmodSync(folder, 0o777);
    const planted = readFileSync(file);
    const home = tempDir();
    await runOnce(dist, home);
    assert.deepEqual(readFileSync(file), planted);
    theCache(join(home, 'cache'));
  });
});

describe("Node's own code cache", () => {
  it('serves every Node module the server loads, to answer, to warm up and later on', async function () {
    // NODE_DEBUG_NATIVE=CODE_CACHE makes Node say whether V8 took its cache of each module it loads:
    // any V8 flag changed before a module loads makes V8 turn it down (45 modules, before).
    const server = await ServerProcess.started({ env: { NODE_DEBUG_NATIVE: 'CODE_CACHE' } });
    await server.call('thread/list', {});
    // Long after the server's own flags are set (v8Flags.ts): a command loads child_process.
    await server.call('command/exec', {
      command: [process.execPath, '-e', ''],
      sandboxPolicy: { type: 'dangerFullAccess' },
    });
    await server.stop();
    if (!/Code cache of \S+ .* is accepted/.test(server.stderr)) {
      console.log('      skipped: this Node does not report on its code cache');
      this.skip();
    }
    const loaded = (verdict: string) =>
      [...server.stderr.matchAll(new RegExp(`Code cache of (\\S+) .* is ${verdict}`, 'g'))].map((m) => m[1]);
    const rejected = loaded('rejected');
    for (const name of ['net', 'stream', 'os', 'vm', 'zlib', 'crypto', 'child_process']) {
      assert.ok(loaded('accepted').includes(name), `${name} not loaded with its cache`);
    }
    // Node's internals that a Node function loads when first called (fs.rm's recursive walk) are
    // beyond reach; the promise API behind node:fs's `promises` getter is not (startupFlags.ts).
    const reachable = rejected.filter(
      (name) => !name!.startsWith('internal/') || name === 'internal/fs/promises',
    );
    assert.deepEqual(reachable, [], 'compiled from source');
  });
});
