// `npm test`: sets the machine up (.ci/setup.mjs), then runs each phase in order and stops at the first that
// fails. The suites get a temp folder of this run's own (THREADLINE_TEST_TMPDIR), so other programs on the
// machine cannot confuse the check at the end: the run fails if the suites left anything in it. Prints
// how long each phase took. Node built-ins only: it runs before `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { leftoverReport, leftovers } from './leftovers.mjs';
import { setup } from './setup.mjs';
import { wineLauncher, wineSkipReason } from './wine.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

const npmRun = (script) => () => spawnSync('npm', ['run', script], { cwd: repo, stdio: 'inherit', env });
// The server under Wine with the Windows Node (test/wine); where setup skipped Wine, it says why.
const wineSuite = () => {
  const reason = wineSkipReason() ?? (existsSync(wineLauncher) ? null : 'setup did not install Wine');
  if (reason) return console.log(`Windows suite (Wine) skipped: ${reason}`);
  return spawnSync('npx', ['mocha', '--config', 'test/wine/.mocharc.json'], {
    cwd: repo,
    stdio: 'inherit',
    env,
  });
};
const phases = [
  ['setup', () => setup()],
  ['package', npmRun('package')],
  ['typecheck', npmRun('typecheck')],
  ['lint', npmRun('lint')],
  ['unit and server suites', npmRun('test:unit')],
  ['Windows suite (Wine)', wineSuite],
  ['in-editor suites', npmRun('test:vscode')],
  ['UI suites', npmRun('test:ui')],
];

const runTmp = mkdtempSync(join(tmpdir(), 'threadline-test-run-'));
const env = { ...process.env, THREADLINE_TEST_TMPDIR: runTmp };
// Ctrl+C reaches the phase's processes too; this process waits for them, then reports and cleans up.
process.on('SIGINT', () => {});

const timings = [];
let failed = null;
for (const [name, phase] of phases) {
  const started = Date.now();
  let ok;
  try {
    const result = phase();
    ok = !result || result.status === 0;
  } catch (error) {
    console.error(error.message);
    ok = false;
  }
  timings.push([name, (Date.now() - started) / 1000]);
  if (!ok) {
    failed = name;
    break;
  }
}

const left = leftovers(runTmp);
rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });

console.log('\nnpm test, phase by phase:');
for (const [name, seconds] of timings)
  console.log(`  ${name.padEnd(24)} ${seconds.toFixed(1).padStart(7)} s`);
const total = timings.reduce((sum, [, seconds]) => sum + seconds, 0);
console.log(`  ${'total'.padEnd(24)} ${total.toFixed(1).padStart(7)} s`);

if (left.length) console.error(`\n${leftoverReport(left, runTmp)}`);
if (failed) console.error(`\nnpm test: ${failed} failed`);
process.exit(failed || left.length ? 1 : 0);
