// The lint rule that keeps git calls in server/git/hostGit.ts, run through ESLint's own API on the
// project's config: it fires on each shape of a literal git call in server/ and extension/ code, and
// on nothing else, nor in the wrapper or in tests (which set up their repositories with plain git).
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../../../support/paths';

const CALLS = [
  "execFile('git', ['status'], () => {});",
  "spawn('git', ['diff']);",
  "cp.spawnSync('git', ['diff']);",
  "execSync('git diff HEAD');",
  'execSync(`git show ${ref}`);',
  "cp.execFileSync('git.exe', []);",
];
const HEADER =
  "import * as cp from 'node:child_process';\nimport { execFile, execSync, spawn } from 'node:child_process';\ndeclare const ref: string;\n";

async function gitCallsFlagged(relativePath: string, code: string): Promise<number[]> {
  const [result] = await new ESLint({ cwd: repoRoot }).lintText(code, {
    filePath: join(repoRoot, relativePath),
  });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.line);
}

describe('the host git lint rule', function () {
  this.timeout(60_000);

  it('flags every literal git call in server/ and extension/, and nothing else', async () => {
    const code = HEADER + [...CALLS, "spawn('gitk', []);", "spawn('node', ['git']);"].join('\n');
    const callLines = CALLS.map((_, i) => i + 4);
    assert.deepEqual(await gitCallsFlagged('server/agent/someModule.ts', code), callLines);
    assert.deepEqual(await gitCallsFlagged('extension/client/someModule.ts', code), callLines);
  });

  it('leaves the wrapper and the tests alone', async () => {
    const code = HEADER + CALLS.join('\n');
    assert.deepEqual(await gitCallsFlagged('server/git/hostGit.ts', code), []);
    assert.deepEqual(await gitCallsFlagged('test/server/someTest.test.ts', code), []);
  });
});
