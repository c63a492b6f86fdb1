// Protected names a sandboxed command created deeper down (`sub/.git`), and folders it turned into
// git directories, found after it ends and moved aside. No mount can be placed over a name nobody
// can predict, and neither seccomp (it sees no path strings) nor Landlock (no rule by name) can
// refuse `mkdir sub/.git` on Linux, so
// the writable roots are looked at before and after each command, and every protected entry that
// is new or no longer the same (other inode, type or target: a repository made through a dangling
// `.git` link, or a placeholder another server removed) is renamed to
// `<name>.threadline-quarantine`, where no git and no config loader looks, and reported.
//
// The walk ignores `.gitignore` (the command could have written one to hide a folder) and takes
// every folder but the protected ones, breadth first, up to SCAN_LIMIT folders: deeper than that
// in a very large tree, a new repository goes unseen, and the walk says so.
import { promises as fs, type Dirent } from 'node:fs';
import { dirname, join } from 'node:path';
import { isProtectedName, isWithin } from './protectedPaths';
import { intactPlaceholder } from './placeholders';

export const SCAN_LIMIT = 20_000;

export interface NameSnapshot {
  /** Each protected entry under the roots, with what makes it the same entry. */
  entries: Map<string, string>;
  /** Whether the walk saw every folder. */
  complete: boolean;
}

export interface Quarantined {
  path: string;
  /** Where it was moved, or null when it could not be. */
  movedTo: string | null;
}

export async function snapshotNames(roots: string[], limit = SCAN_LIMIT): Promise<NameSnapshot> {
  const entries = new Map<string, string>();
  // A root inside another root is walked as part of it.
  let level = roots.filter((root) => !roots.some((other) => other !== root && isWithin(other, root)));
  let budget = limit;
  let complete = true;
  while (level.length > 0) {
    if (level.length > budget) {
      complete = false;
      level = level.slice(0, budget);
    }
    budget -= level.length;
    const children = await Promise.all(level.map((dir) => visit(dir, entries)));
    level = children.flat();
  }
  return { entries, complete };
}

async function visit(dir: string, entries: Map<string, string>): Promise<string[]> {
  const listed = await fs.readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
  const head = gitDirectoryHead(listed);
  if (head !== null) entries.set(join(dir, head), await identity(join(dir, head)));
  const next: string[] = [];
  for (const entry of listed) {
    const path = join(dir, entry.name);
    if (isProtectedName(entry.name)) entries.set(path, await identity(path));
    // Symlinked folders are not followed: their target is outside the roots (read-only) or met
    // under its real name.
    else if (entry.isDirectory()) next.push(path);
  }
  return next;
}

/**
 * A folder holding HEAD, objects and refs is a git directory itself, found by git with no `.git`
 * at all (`git init --bare .`, then `core.bare=false` and `core.worktree` pointing at the folder
 * make it an ordinary repository with the command's config). Its HEAD is what makes it one, so a
 * new HEAD there is moved aside like a new `.git`. git only checks that objects and refs can be
 * entered (a link, even an executable file, passes), so any kind counts; names compare without
 * case, as the disk may.
 */
function gitDirectoryHead(listed: Dirent[]): string | null {
  const named = (name: string) => listed.find((entry) => entry.name.toLowerCase() === name);
  const head = named('head');
  return head && named('objects') && named('refs') ? head.name : null;
}

/** What makes an entry the same one: inode, type, and where it leads. */
async function identity(path: string): Promise<string> {
  if (await intactPlaceholder(path)) return 'placeholder';
  const stat = await fs.lstat(path).catch(() => null);
  if (stat === null) return 'gone';
  const real = await fs.realpath(path).catch(() => '(dangling)');
  const kind = stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'dir' : 'file';
  return `${stat.dev}:${stat.ino}:${kind}:${real}`;
}

/** Moves aside every protected entry that `after` has and `before` had not, or had differently. */
export async function quarantineNew(before: NameSnapshot, after: NameSnapshot): Promise<Quarantined[]> {
  const moved: Quarantined[] = [];
  for (const [path, id] of after.entries) {
    if (id === 'placeholder' || id === 'gone' || before.entries.get(path) === id) continue;
    moved.push({ path, movedTo: await moveAside(path) });
  }
  return moved;
}

async function moveAside(path: string): Promise<string | null> {
  // The walk met the folder under its real name; a folder swapped for a link since (by a command
  // still running in another sandbox) would lead the rename out of the roots.
  if ((await fs.realpath(dirname(path)).catch(() => null)) !== dirname(path)) return null;
  for (let n = 1; n < 100; n++) {
    const target = `${path}.threadline-quarantine${n === 1 ? '' : `-${n}`}`;
    // Never over something that is there: rename would replace an empty folder or a file.
    if (
      await fs.lstat(target).then(
        () => true,
        () => false,
      )
    )
      continue;
    return fs.rename(path, target).then(
      () => target,
      () => null,
    );
  }
  return null;
}

/** What the user and the model are told about what was moved aside. */
export function quarantineNotice(moved: Quarantined[]): string {
  const lines = moved.map(({ path, movedTo }) =>
    movedTo ? `${path} -> ${movedTo}` : `${path} (could not be moved; remove it before running git there)`,
  );
  return [
    `[the command created ${moved.length === 1 ? 'a repository or protected name' : 'repositories or protected names'} (.git, .threadline, .codex, .vscode, or a git directory's HEAD), which sandboxed commands may not; moved aside so that no git or editor on this machine acts on ${moved.length === 1 ? 'it' : 'them'}:`,
    ...lines.map((line) => `  ${line}`),
    'To create one, run the command again outside the sandbox (sandbox_permissions: require_escalated), which the user approves.]',
  ].join('\n');
}
