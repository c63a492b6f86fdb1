// What test/support/tempDirs.ts promises, attacked with real suites run by a real mocha: every folder a
// suite makes is gone once it ends, whether its tests pass, throw, time out, reject or end the process;
// and the check at the end of `npm test` names whatever is left.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/paths';
import { tempDir } from '../../support/tempDirs';

const mochaBin = join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');

function runSuite(spec: string, runTmp: string) {
  const args = [mochaBin, '--no-config', '-r', 'tsx/cjs', '-r', 'test/support/tempDirs.ts', spec];
  const env = { ...process.env, THREADLINE_TEST_TMPDIR: runTmp };
  return spawnSync(process.execPath, args, { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 });
}

describe('temp folders of the suites', function () {
  this.timeout(60_000);

  it('are removed after a suite whose tests pass, throw, time out and reject', () => {
    const runTmp = tempDir('threadline-run-');
    const result = runSuite('test/fixtures/tempDirs/leaky.spec.ts', runTmp);
    assert.match(result.stdout, /1 passing/);
    assert.match(result.stdout, /3 failing/, result.stdout + result.stderr);
    assert.deepEqual(readdirSync(runTmp), []);
  });

  it('are removed when a test ends the process', () => {
    const runTmp = tempDir('threadline-run-');
    const result = runSuite('test/fixtures/tempDirs/exits.spec.ts', runTmp);
    assert.equal(result.status, 3, result.stdout + result.stderr);
    assert.deepEqual(readdirSync(runTmp), []);
  });

  it('made in a test are gone when the next starts; a suite keeps its own until it ends', () => {
    const runTmp = tempDir('threadline-run-');
    const result = runSuite('test/fixtures/tempDirs/order.spec.ts', runTmp);
    assert.match(result.stdout, /2 passing/, result.stdout + result.stderr);
    assert.deepEqual(readdirSync(runTmp), []);
  });

  it('left behind are named by the check at the end of npm test', () => {
    const runTmp = tempDir('threadline-run-');
    mkdirSync(join(runTmp, 'threadline-repo-abc', 'src'), { recursive: true });
    writeFileSync(join(runTmp, 'threadline-repo-abc', 'src', 'a.txt'), 'x'.repeat(2048));
    writeFileSync(join(runTmp, 'threadline-home-xyz'), '');
    const check = (dir: string) =>
      spawnSync(process.execPath, [join(repoRoot, '.ci', 'leftovers.mjs'), dir], { encoding: 'utf8' });
    const dirty = check(runTmp);
    assert.equal(dirty.status, 1);
    assert.match(dirty.stderr, /2 temp entries left in .* by the suites:/);
    assert.match(dirty.stderr, /^ {2}threadline-home-xyz \(1 file, 0\.0 KiB\)$/m);
    assert.match(dirty.stderr, /^ {2}threadline-repo-abc \(1 file, 2\.0 KiB\)$/m);
    assert.equal(check(tempDir('threadline-run-')).status, 0);
  });
});
