// CI must do what the README tells a new user to do and nothing more: a CI that installs things first hides
// exactly the failures a fresh machine would show (issue 21: npm test failed without bubblewrap, CI did
// not, because .ci/run installed it with its own apt-get line).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/paths';

/** The commands of the first sh block under "## Develop", without their comments. */
function developCommands(readme: string): string[] {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Develop'));
  assert.ok(section, 'README has no "## Develop" section');
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'the Develop section has no sh block');
  return commandLines(block[1]!);
}

function commandLines(script: string): string[] {
  return script
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line.length > 0);
}

// What a bash script says before its first command: strict mode and moving to the checkout.
const preamble = ['set -euo pipefail', 'cd "$(dirname "$0")/.."'];

/** The lines of a CI script that run something not in the Develop block (whole lines: `a && b` is one). */
function foreignCommands(ciScript: string, allowed: string[]): string[] {
  return commandLines(ciScript)
    .filter((line) => !preamble.includes(line))
    .filter((line) => !allowed.includes(line));
}

describe('.ci/run and the README', () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const ciRun = readFileSync(join(repoRoot, '.ci', 'run'), 'utf8');

  it('runs only commands of the Develop block, and the test command among them', () => {
    const allowed = developCommands(readme);
    assert.ok(allowed.includes('npm test'), `Develop lists ${JSON.stringify(allowed)}`);
    assert.deepEqual(foreignCommands(ciRun, allowed), []);
    assert.ok(commandLines(ciRun).includes('npm test'), '.ci/run does not run npm test');
  });

  it('would catch an install step slipped in before the tests, on its own line or chained', () => {
    const allowed = developCommands(readme);
    const sneaky = `${ciRun}\napt-get install -y bubblewrap # CI only\nnpm ci && npm test\n`;
    assert.deepEqual(foreignCommands(sneaky, allowed), [
      'apt-get install -y bubblewrap',
      'npm ci && npm test',
    ]);
  });
});
