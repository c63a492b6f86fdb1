// Temp folders for tests (homes, repositories, workspaces, code-server data), removed without the test
// having to: a folder made during a test (its beforeEach hooks included) goes after that test, pass or
// fail; one made outside a test (a suite's before, a script such as a benchmark) goes at the end of the
// run, or when the process exits. `npm test` points THREADLINE_TEST_TMPDIR at a folder of its own and
// fails if anything is left in it. Mocha loads this file as a root hook plugin (.mocharc.json).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = process.env.THREADLINE_TEST_TMPDIR ?? tmpdir();
const ofThisTest: string[] = [];
const ofThisRun: string[] = [];
let inTest = false;

/**
 * A new empty folder; its name starts with `prefix`, so a leftover names the helper that made it.
 * `keep`: not removed (the demo workspace `npm start` opens in an editor that outlives it).
 */
export function tempDir(prefix = 'threadline-test-', { keep = false } = {}): string {
  const dir = mkdtempSync(join(root, prefix));
  if (!keep) (inTest ? ofThisTest : ofThisRun).push(dir);
  return dir;
}

function removeAll(dirs: string[]): void {
  for (const dir of dirs.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    } catch (error) {
      // Something still writes there (a process the test did not stop): a failing root hook would skip
      // every test after it, so try again at the end and let npm test's leftover check name it.
      console.warn(`tempDir: could not remove ${dir} yet: ${(error as Error).message}`);
      if (dirs !== ofThisRun) ofThisRun.push(dir);
    }
  }
}

export const mochaHooks = {
  beforeEach(): void {
    inTest = true;
  },
  afterEach(): void {
    inTest = false;
    removeAll(ofThisTest);
  },
  afterAll(): void {
    removeAll(ofThisRun);
  },
};

// A run cut short (an uncaught error, process.exit in a script) still removes what it made.
process.on('exit', () => {
  removeAll(ofThisTest);
  removeAll(ofThisRun);
});
