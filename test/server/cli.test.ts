import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { packageJson, serverBundle } from '../support/paths';

function run(...args: string[]) {
  return spawnSync(process.execPath, [serverBundle, ...args], { encoding: 'utf8', timeout: 10_000 });
}

describe('dist/server.js as a program', () => {
  it('prints its version', () => {
    const result = run('--version');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `threadline ${packageJson.version}\n`);
  });

  it('prints help on stdout', () => {
    const result = run('--help');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^Usage: threadline/);
  });

  it('exits 2 with usage on stderr for an unknown command', () => {
    const result = run('nonsense');
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /unknown command 'nonsense'/);
  });

  it('is runnable through its shebang, as the npm bin entry', () => {
    const result = spawnSync(serverBundle, ['--version'], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(packageJson.bin.threadline, 'dist/server.js');
  });
});
