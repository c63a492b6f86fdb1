// Lists a folder tree the way `git status` sees it: .gitignore files at every level apply to the
// folder they sit in, `.git` itself is never listed, and symbolic links are listed but not entered
// (a link could lead out of the tree or into a cycle).
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

export interface WalkedEntry {
  /** Relative to the root, with forward slashes. */
  path: string;
  isDirectory: boolean;
}

/** The .gitignore rules in force in one folder: its own and its ancestors', each relative to where it sits. */
export interface IgnoreScope {
  readonly rules: readonly { base: string; matcher: Ignore }[];
}

export const rootScope: IgnoreScope = { rules: [] };

export function isIgnored(scope: IgnoreScope, path: string, isDirectory: boolean): boolean {
  if (path === '.git' || path.endsWith('/.git')) return true;
  const test = isDirectory ? `${path}/` : path;
  return scope.rules.some(({ base, matcher }) => matcher.ignores(base ? test.slice(base.length + 1) : test));
}

/** The scope inside folder `dir` (relative), given the scope of its parent. */
export async function scopeOf(root: string, dir: string, parent: IgnoreScope): Promise<IgnoreScope> {
  const text = await readFile(join(root, dir, '.gitignore'), 'utf8').catch(() => undefined);
  if (text === undefined) return parent;
  return { rules: [...parent.rules, { base: dir, matcher: ignore().add(text) }] };
}

export async function readEntries(root: string, dir: string): Promise<Dirent[]> {
  return readdir(join(root, dir), { withFileTypes: true }).catch(() => []);
}

/**
 * Walks `dir` (relative to root, '' for the root), calling `onFolder` for every folder entered with
 * its scope and `onEntry` for every entry kept. Breadth-first, so shallow paths arrive first.
 */
export async function walk(
  root: string,
  dir: string,
  scope: IgnoreScope,
  visit: { onFolder(dir: string, scope: IgnoreScope): void; onEntry(entry: WalkedEntry): void },
  cancelled: () => boolean = () => false,
): Promise<void> {
  let level: { dir: string; scope: IgnoreScope }[] = [{ dir, scope }];
  while (level.length > 0 && !cancelled()) {
    const next: { dir: string; scope: IgnoreScope }[] = [];
    // Folders of one level are read a batch at a time: enough to keep the disk busy, few enough
    // descriptors to stay far from the process limit.
    for (let i = 0; i < level.length; i += 64) {
      const batch = level.slice(i, i + 64);
      const read = await Promise.all(
        batch.map(async (folder) => ({
          folder,
          scope: await scopeOf(root, folder.dir, folder.scope),
          dirents: await readEntries(root, folder.dir),
        })),
      );
      for (const { folder, scope: inner, dirents } of read) {
        visit.onFolder(folder.dir, inner);
        for (const dirent of dirents) {
          const path = folder.dir ? `${folder.dir}/${dirent.name}` : dirent.name;
          const isDirectory = dirent.isDirectory();
          if (isIgnored(inner, path, isDirectory)) continue;
          visit.onEntry({ path, isDirectory });
          if (isDirectory) next.push({ dir: path, scope: inner });
        }
      }
    }
    level = next;
  }
}
