// What stays read-only inside the writable roots, decided in one place for the sandbox (which binds
// these paths read-only) and for apply_patch (which will not write into them without asking):
// every `.git` (folder, or file pointing at a git folder elsewhere, with that folder and its common
// folder), every `.threadline/`, `.codex/` (project config layers) and `.vscode/` folder, and
// Threadline's home with the rules in it. A git folder is where hooks and `core.fsmonitor` live:
// whatever writes there runs outside the sandbox at the user's next `git` command, which VS Code's
// git extension issues by itself. Names that do not exist yet are kept from being created as well
// (placeholders.ts, newProtectedNames.ts).
import { promises as fs, type Dirent } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { HOST_RULES, isWithin, relativeParts, type PathRules } from '../fs/pathRules';

export { isWithin };

/** Names protected wherever they appear under a writable root. */
export const PROTECTED_NAMES: readonly string[] = ['.git', '.threadline', '.codex', '.vscode'];

/**
 * Whether a file name is a protected one. Compared without case: on a case-insensitive disk
 * (macOS, Windows) `.GIT/hooks` is the repository's own hooks folder.
 */
export function isProtectedName(name: string): boolean {
  return PROTECTED_NAMES.includes(name.toLowerCase());
}

/** How far the search for nested repositories looks, so a huge tree cannot stall a command. */
export const WALK_LIMITS = { maxDepth: 8, maxDirs: 5000 };

/**
 * The protected paths that exist under `root` (a real path): its own and its nested repositories'
 * `.git` with the folders they point at, and `.threadline` folders. The walk skips what the
 * tree's `.gitignore` files ignore and stops at WALK_LIMITS.
 */
export async function protectedPathsUnder(root: string): Promise<string[]> {
  const found = new Set<string>();
  let budget = WALK_LIMITS.maxDirs;
  // Breadth first, so the limits cut the deepest folders, not a whole sibling; the folders of one
  // level are read together, which keeps a large tree to tens of milliseconds.
  let level: Folder[] = [{ dir: root, rules: [] }];
  for (let depth = 0; depth <= WALK_LIMITS.maxDepth && level.length > 0; depth++) {
    level = level.slice(0, budget);
    budget -= level.length;
    const children = await Promise.all(level.map((folder) => visit(folder, found)));
    level = children.flat();
  }
  return [...found];
}

interface Folder {
  dir: string;
  rules: IgnoreRules[];
}

/** Records the protected entries of one folder; returns the subfolders to walk. */
async function visit({ dir, rules: inherited }: Folder, found: Set<string>): Promise<Folder[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
  const hasGitignore = entries.some((entry) => entry.name === '.gitignore' && entry.isFile());
  const rules = hasGitignore ? await withGitignore(dir, inherited) : inherited;
  const next: Folder[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (isProtectedName(entry.name)) {
      for (const protectedPath of await protectedEntry(path)) found.add(protectedPath);
    } else if (entry.isDirectory() && !ignored(rules, path)) {
      // A symlinked folder is not walked: its target is either outside the roots (read-only
      // anyway) or inside them, where the walk meets it under its real name.
      next.push({ dir: path, rules });
    }
  }
  return next;
}

/** A protected entry and, for a `.git` file or link, the git folders it leads to. */
export async function protectedEntry(path: string): Promise<string[]> {
  const real = await fs.realpath(path).catch(() => null);
  if (real === null) return [];
  const paths = [real];
  const stat = await fs.stat(real).catch(() => null);
  if (stat?.isFile()) {
    const gitdir = await pointedGitDir(real);
    if (gitdir !== null) paths.push(gitdir, ...(await commonDir(gitdir)));
  } else if (stat?.isDirectory()) {
    paths.push(...(await commonDir(real)));
  }
  return [...new Set(paths)];
}

/** The folder a `.git` file names (`gitdir: <path>`, relative to the file), when it exists. */
async function pointedGitDir(dotGitFile: string): Promise<string | null> {
  const text = await fs.readFile(dotGitFile, 'utf8').catch(() => '');
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!match) return null;
  return fs.realpath(resolve(dirname(dotGitFile), match[1]!)).catch(() => null);
}

/** A worktree's git folder shares hooks and config with the main one, named in `commondir`. */
async function commonDir(gitdir: string): Promise<string[]> {
  const text = await fs.readFile(join(gitdir, 'commondir'), 'utf8').catch(() => null);
  if (text === null || text.trim() === '') return [];
  const common = await fs.realpath(resolve(gitdir, text.trim())).catch(() => null);
  return common === null || common === gitdir ? [] : [common];
}

export interface IgnoreRules {
  base: string;
  matcher: Ignore;
}

export async function withGitignore(dir: string, inherited: IgnoreRules[]): Promise<IgnoreRules[]> {
  const text = await fs.readFile(join(dir, '.gitignore'), 'utf8').catch(() => null);
  return text === null ? inherited : [...inherited, { base: dir, matcher: ignore().add(text) }];
}

export function ignored(rules: IgnoreRules[], dir: string): boolean {
  // The trailing slash lets folder-only patterns (`build/`) match.
  return rules.some(({ base, matcher }) => matcher.ignores(`${relative(base, dir).split(sep).join('/')}/`));
}

/** What a write must stay out of, for the real paths of the writable roots. */
export interface ProtectedSet {
  /** Existing protected paths (real), bound read-only by the sandbox. */
  paths: string[];
  /** Folders hidden from commands and never written: Threadline's home. */
  hidden: string[];
}

export async function protectedSet(realRoots: string[], home: string | null): Promise<ProtectedSet> {
  const paths = new Set<string>();
  for (const root of realRoots) for (const path of await protectedPathsUnder(root)) paths.add(path);
  const realHome = home === null ? null : await fs.realpath(home).catch(() => null);
  return { paths: [...paths], hidden: realHome === null ? [] : [realHome] };
}

/**
 * Whether a write to `target` (a real path: symlinks resolved) would land in a protected path:
 * one found at start, a protected name anywhere under a root (also one that does not exist yet,
 * so a patch cannot create a nested `.git`), or a hidden folder. `rules` say how the disk compares
 * paths (drive letters, case): see pathRules.ts.
 */
export function isProtected(
  target: string,
  realRoots: string[],
  set: ProtectedSet,
  rules: PathRules = HOST_RULES,
): boolean {
  if (set.paths.some((path) => isWithin(path, target, rules))) return true;
  const revealed = revealedRoots(set.hidden, realRoots, rules);
  const hidden = (path: string) =>
    isWithin(path, target, rules) && !revealed.some((root) => isWithin(root, target, rules));
  if (set.hidden.some(hidden)) return true;
  return realRoots.some((root) => relativeParts(root, target, rules)?.some(isProtectedName) ?? false);
}

/** The folder of a hidden home that holds the threads' git worktrees (server/git/worktrees.ts). */
export const WORKTREES_FOLDER = 'worktrees';

/**
 * The writable roots that stay visible inside a hidden folder: a thread's own git worktree, which
 * lives in Threadline's home (under `worktrees/`) so the user's editor does not see it twice. Only
 * the thread's roots come back; the rest of the home, other threads' worktrees included, stays hidden.
 */
export function revealedRoots(
  hidden: string[],
  realRoots: string[],
  rules: PathRules = HOST_RULES,
): string[] {
  // `worktrees/<repo>/<thread>` or below: never a folder holding several threads' worktrees.
  return realRoots.filter((root) =>
    hidden.some((path) => (relativeParts(join(path, WORKTREES_FOLDER), root, rules)?.length ?? 0) >= 2),
  );
}
