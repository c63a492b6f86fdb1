// What starting a thread in its own git worktree costs in git: branch + `git worktree add` (a full
// checkout of the tree) through the hardened wrapper, on a copy of a repository (default: this one),
// never on the repository itself. Prints the median of 5 creations and of 5 discards.
// Usage: npx tsx bench/worktreeCreate.ts [a repository to copy]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createWorktree, discardWorktree } from '../server/git/worktrees';
import { uuidv7 } from '../server/threads/uuidv7';
import { tempDir } from '../test/support/tempDirs';

const source = process.argv[2] ?? process.cwd();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const repo = join(tempDir('threadline-bench-wt-repo-'), 'repo');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', source, repo]);
  const files = execFileSync('git', ['ls-files'], { cwd: repo, encoding: 'utf8' }).split('\n').length - 1;
  const home = tempDir('threadline-bench-wt-home-');
  const created: number[] = [];
  const discarded: number[] = [];
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    const link = await createWorktree(home, uuidv7(), repo, {});
    created.push(performance.now() - t);
    t = performance.now();
    await discardWorktree(home, link);
    discarded.push(performance.now() - t);
  }
  console.log(
    `worktree of ${files} files: create ${median(created).toFixed(0)} ms, discard ${median(discarded).toFixed(0)} ms (median of 5)`,
  );
}

void main();
