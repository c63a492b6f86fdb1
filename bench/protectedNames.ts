// What protecting names that do not exist yet costs a sandboxed command: the walk of the writable
// roots that runs before and again after each one (newProtectedNames.ts), on a tree of N folders
// (20 files each), and on a given folder as it is. Prints the median of 5 walks.
// Usage: npx tsx bench/protectedNames.ts [folders, default 20000] [an existing folder to walk too]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SCAN_LIMIT, snapshotNames } from '../server/sandbox/newProtectedNames';
import { tempDir } from '../test/support/tempDirs';

const folders = Number(process.argv[2] ?? SCAN_LIMIT);
const existing = process.argv[3];

/** Folders 3 levels deep (fan-out 30), as a source tree with its dependencies might be. */
function makeTree(root: string): void {
  for (let n = 0; n < folders; n++) {
    const dir = join(root, `a${n % 30}`, `b${Math.floor(n / 30) % 30}`, `c${n}`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, `f${i}.ts`), '');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function time(label: string, root: string): Promise<void> {
  const runs: number[] = [];
  let seen = { entries: 0, complete: true };
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const snapshot = await snapshotNames([root]);
    runs.push(performance.now() - t);
    seen = { entries: snapshot.entries.size, complete: snapshot.complete };
  }
  console.log(
    `${label}: ${median(runs).toFixed(0)} ms per walk (median of 5), ${seen.entries} protected entries, ${seen.complete ? 'complete' : `cut at ${SCAN_LIMIT} folders`}`,
  );
}

async function main(): Promise<void> {
  const root = tempDir('threadline-bench-names-');
  makeTree(root);
  await time(`${folders} folders`, root);
  if (existing) await time(existing, existing);
}

void main();
