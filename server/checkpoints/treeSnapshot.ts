// A cheap picture of the files a command may change: size, times, inode and mode of every regular
// file under the roots, without reading them. Two pictures taken around a command say which files
// it created, changed or deleted. What `.gitignore` ignores, repositories' own folders and the
// usual dependency and build folders are left out, and the walk is bounded so a huge tree cannot
// stall a command; a cut-short walk says so.
import { promises as fs, type Dirent, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ignored, PROTECTED_NAMES, withGitignore, type IgnoreRules } from '../sandbox/protectedPaths';

/** Folders never walked, ignored or not: they are regenerated, and far too large to copy. */
const SKIPPED_FOLDERS = new Set([
  ...PROTECTED_NAMES,
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  'target',
  'dist',
  'build',
  'out',
  '.next',
  '.cache',
  '.gradle',
  '.tox',
]);

export const SNAPSHOT_LIMITS = { maxFiles: 20_000, maxDirs: 5_000, maxMs: 2_000 };

export interface FileStat {
  size: number;
  mode: number;
  /** Changes whenever the file's content or inode does. */
  key: string;
}

export interface Snapshot {
  files: Map<string, FileStat>;
  /** Why the walk stopped early, or null when it saw everything. */
  cutShort: string | null;
}

export async function snapshotTree(roots: string[], limits = SNAPSHOT_LIMITS): Promise<Snapshot> {
  const files = new Map<string, FileStat>();
  const started = Date.now();
  let dirs = 0;
  let cutShort: string | null = null;
  let level: { dir: string; rules: IgnoreRules[] }[] = roots.map((dir) => ({ dir, rules: [] }));
  while (level.length > 0 && cutShort === null) {
    const next: typeof level = [];
    for (const folder of level) {
      if (++dirs > limits.maxDirs) cutShort = `more than ${limits.maxDirs} folders`;
      else if (files.size > limits.maxFiles) cutShort = `more than ${limits.maxFiles} files`;
      else if (Date.now() - started > limits.maxMs) cutShort = `looking took over ${limits.maxMs} ms`;
      if (cutShort !== null) break;
      next.push(...(await visit(folder.dir, folder.rules, files)));
    }
    level = next;
  }
  return { files, cutShort };
}

async function visit(dir: string, inherited: IgnoreRules[], files: Map<string, FileStat>) {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
  const rules = entries.some((e) => e.name === '.gitignore' && e.isFile())
    ? await withGitignore(dir, inherited)
    : inherited;
  const subfolders: { dir: string; rules: IgnoreRules[] }[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      // Links are not followed: their targets are outside the roots or met under their own name.
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && !ignored(rules, path)) subfolders.push({ dir: path, rules });
      } else if (entry.isFile() && !ignoredFile(rules, path)) {
        const stat = await fs.lstat(path).catch(() => null);
        if (stat?.isFile()) files.set(path, statOf(stat));
      }
    }),
  );
  return subfolders;
}

function ignoredFile(rules: IgnoreRules[], path: string): boolean {
  return rules.some(({ base, matcher }) => matcher.ignores(relative(base, path).split(sep).join('/')));
}

export function statOf(stat: Stats): FileStat {
  return {
    size: stat.size,
    mode: stat.mode & 0o7777,
    key: `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`,
  };
}
