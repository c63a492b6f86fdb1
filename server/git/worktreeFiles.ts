// Files moved between the workspace and a thread's worktree (an apply, a carry of uncommitted
// changes). Both trees are attacker input: a committed symbolic link, a file or a folder on the way,
// could lead a write out of the tree, and `.git`-like names are never written.
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { isWithin, relativeParts } from '../fs/pathRules';
import { isProtectedName } from '../sandbox/protectedPaths';
import { openHostGit } from './hostGit';

/** The files `git status` lists in a working tree (changed, staged, untracked; not ignored). */
export async function changedFiles(worktree: string): Promise<string[]> {
  const git = await openHostGit(worktree);
  const out = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']);
  return out
    .split('\0')
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
}

/** Why `path` (relative to `root`) must not be written, or null when it may. */
export async function unsafeToWrite(root: string, path: string): Promise<string | null> {
  const parts = relativeParts(root, join(root, path));
  if (parts === null || parts.length === 0 || parts.some(isProtectedName)) {
    return 'outside the repository or in a protected folder';
  }
  const target = join(root, path);
  if ((await fs.lstat(target).catch(() => null))?.isSymbolicLink()) {
    return 'it is a symbolic link in the workspace';
  }
  if (!isWithin(await fs.realpath(root), await realAncestor(dirname(target)))) {
    return 'its folder leads outside the repository';
  }
  return null;
}

/** Writes `data` at `target` with a file mode as git names it, or removes it for null. */
export async function writeFile(target: string, data: Buffer | null, mode: string): Promise<void> {
  if (data === null) {
    await fs.rm(target, { force: true });
    return;
  }
  await fs.mkdir(dirname(target), { recursive: true });
  await fs.writeFile(target, data);
  if (process.platform !== 'win32') await fs.chmod(target, mode === '100755' ? 0o755 : 0o644);
}

/** The real path of the nearest folder on the way that exists. */
async function realAncestor(folder: string): Promise<string> {
  for (let dir = folder; ; dir = dirname(dir)) {
    const real = await fs.realpath(dir).catch(() => null);
    if (real !== null || dirname(dir) === dir) return real ?? dir;
  }
}
