// A folder holding HEAD, objects and refs is a git directory to git, `.git` or not: a patch that
// adds `HEAD`, `objects/x`, `refs/x` and a `config` naming a `core.worktree` and a `core.fsmonitor`
// makes a repository whose config runs a program at the next host-side `git status`. Writes that
// would land in such a folder (one that is one already, or that the patch makes one) are treated
// as writes into a protected path. Names compare without case, as the disk may.
import { promises as fs } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { isWithin } from '../../sandbox/protectedPaths';

const MARKERS = ['head', 'objects', 'refs'];

/** The targets (real paths inside `roots`) that would land in a git directory once all are written. */
export async function gitDirectoryTargets(targets: string[], roots: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const target of targets) {
    const root = roots.find((candidate) => isWithin(candidate, target) && candidate !== target);
    if (root === undefined) continue;
    for (let folder = dirname(target); isWithin(root, folder); folder = dirname(folder)) {
      if (await isGitDirectoryAfter(folder, targets)) {
        hits.push(target);
        break;
      }
      if (folder === root) break;
    }
  }
  return hits;
}

async function isGitDirectoryAfter(folder: string, targets: string[]): Promise<boolean> {
  const written = new Set(
    targets
      .filter((target) => isWithin(folder, target) && target !== folder)
      .map((target) => relative(folder, target).split(sep)[0]!.toLowerCase()),
  );
  const present = await fs.readdir(folder).then(
    (names) => new Set(names.map((name) => name.toLowerCase())),
    () => new Set<string>(),
  );
  return MARKERS.every((marker) => written.has(marker) || present.has(marker));
}
