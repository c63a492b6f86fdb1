// auth.json shared by the servers of several windows: no process loses another's key.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AuthStore } from '../../../../server/account/authStore';
import { withFileLock, LockTimeoutError } from '../../../../server/fs/lockFile';
import { createLogger } from '../../../../server/log';
import { tempDir } from '../../../support/serverProcess';

const script = join(__dirname, '../../../fixtures/setApiKeys.ts');

function run(home: string, prefix: string, count: number): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, home, prefix, String(count)], {
    stdio: 'inherit',
  });
  return new Promise((resolve) => child.on('exit', resolve));
}

describe('auth.json across processes', () => {
  let home: string;
  beforeEach(() => (home = tempDir('threadline-auth-')));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('keeps every key when four processes store keys at once', async function () {
    this.timeout(60_000);
    const prefixes = ['a', 'b', 'c', 'd'];
    const codes = await Promise.all(prefixes.map((p) => run(home, p, 25)));
    assert.deepEqual(codes, [0, 0, 0, 0]);
    const { providers } = JSON.parse(readFileSync(join(home, 'auth.json'), 'utf8')) as {
      providers: Record<string, { apiKey: string }>;
    };
    const expected = prefixes.flatMap((p) => Array.from({ length: 25 }, (_, i) => `${p}-${i}`));
    assert.deepEqual(Object.keys(providers).sort(), expected.sort());
    assert.equal(providers['c-7']?.apiKey, 'sk-c-7');
  });

  it('takes over a lock left by a process that died', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid!;
    writeFileSync(join(home, 'auth.json.lock'), `${dead}@${hostname()}`);
    const store = new AuthStore(home, createLogger('error'));
    await store.setApiKey('openai', 'sk-after');
    assert.equal(await store.apiKey('openai'), 'sk-after');
  });

  it('waits for a live holder, and gives up with a clear error', async () => {
    const lock = join(home, 'x.lock');
    const order: string[] = [];
    let release!: () => void;
    const held = withFileLock(lock, () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const waiting = withFileLock(lock, async () => order.push('second'));
    await assert.rejects(
      withFileLock(lock, async () => order.push('never'), { timeoutMs: 100 }),
      LockTimeoutError,
    );
    order.push('first done');
    release();
    await held;
    await waiting;
    assert.deepEqual(order, ['first done', 'second']);
  });
});
