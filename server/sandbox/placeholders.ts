// Protected names that do not exist yet, kept from being created at the places a command is most
// likely to create them: the top of every writable root and the folder it starts in. A mount
// namespace can only make read-only what exists, so an empty folder is made on the host under
// each missing name and bound read-only for the command's lifetime: `git init` then finds `.git`
// there and cannot write into it. An empty `.git` folder is not a repository to git (it wants
// HEAD, objects and refs), so host-side git and VS Code go on as if it were not there, and it is
// removed once the last command using it has ended (rmdir only: whatever a host program put in
// it meanwhile is kept, and so is the folder).
//
// Why a count: removing a folder that is a mount point in another mount namespace is allowed and
// silently unmounts it there (Linux 3.18+), so one command's cleanup would reopen the name in a
// command still running. Every command whose roots hold a placeholder keeps it alive. Two servers
// on one folder do not see each other's counts; newProtectedNames.ts catches what that lets through
// (a name recreated has a new inode). A server killed while holding placeholders leaves them as
// empty folders; placeholderLedger.ts has the next server remove them.
//
// A command already running when a placeholder is made (in another folder of the same roots) has
// no mount over it: to that command it is an ordinary empty folder it may fill or remove. Such a
// placeholder counts as one only while it is the very folder made, still empty; otherwise the walk
// after a command takes it for the new name it then is. One that no running command could reach is
// left alone whatever a host program puts in it.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { recordHeld, sweepLeftovers } from './placeholderLedger';
import { isProtected, isWithin, PROTECTED_NAMES, protectedEntry, type ProtectedSet } from './protectedPaths';

interface Held {
  /** How many running commands hold it. */
  count: number;
  ino: number;
  /** Whether a command running when it was made could write there (see above). */
  exposed: boolean;
}

const held = new Map<string, Held>();
let swept = false;

export interface Reserved {
  roots: string[];
  /** Placeholders this command holds (made now or by a command still running); `release` them. */
  placeholders: string[];
  /** Protected entries that exist in the command's folders, with what they point at (real paths). */
  existing: string[];
}

/** The reservations of the commands running now. */
const running = new Set<Reserved>();

/**
 * Holds a read-only placeholder for every protected name missing in `folders` (real paths: the
 * roots and the command's cwd), and every placeholder already held under `roots`.
 */
export async function reservePlaceholders(
  folders: string[],
  roots: string[],
  set: ProtectedSet,
): Promise<Reserved> {
  if (!swept) {
    swept = true;
    sweepLeftovers(isPlaceholder);
  }
  // Registered before anything is made, so that what other commands make meanwhile counts as
  // reachable from this one until it holds it.
  const reserved: Reserved = { roots, placeholders: [], existing: [] };
  running.add(reserved);
  const placeholders = new Set<string>();
  for (const path of held.keys())
    if (roots.some((root) => isWithin(root, path)) && (await intactPlaceholder(path))) placeholders.add(path);
  const existing: string[] = [];
  // A cwd inside a protected folder never gets here (workdir.ts refuses it); checked again, since a
  // placeholder made there would be a folder on the host that nothing asked for.
  const usable = folders.filter((folder) => !isProtected(folder, roots, set));
  for (const folder of new Set(usable)) {
    for (const name of PROTECTED_NAMES) {
      const path = join(folder, name);
      if (placeholders.has(path)) continue;
      const made = await fs.mkdir(path).then(
        () => fs.lstat(path),
        () => null,
      );
      if (made) {
        const exposed = [...running].some(
          (other) =>
            other !== reserved &&
            other.roots.some((root) => isWithin(root, path)) &&
            !other.placeholders.includes(path),
        );
        // Made again where a command still running holds a stale one: its count carries over.
        held.set(path, { count: held.get(path)?.count ?? 0, ino: made.ino, exposed });
        placeholders.add(path);
        recordHeld([...held.keys()]);
      }
      // Taken (by a folder, file, link or a differently cased name): bound read-only if it resolves.
      else existing.push(...(await protectedEntry(path)));
    }
  }
  for (const path of placeholders) held.get(path)!.count++;
  reserved.placeholders = [...placeholders];
  reserved.existing = existing;
  return reserved;
}

/** Lets go of a command's placeholders; the last command holding one removes it, if still empty. */
export async function releasePlaceholders(reserved: Reserved): Promise<void> {
  running.delete(reserved);
  for (const path of reserved.placeholders) {
    const entry = held.get(path);
    if (entry && --entry.count > 0) continue;
    held.delete(path);
    await fs.rmdir(path).catch(() => {});
  }
  recordHeld([...held.keys()]);
}

/** Whether `path` is a placeholder some command holds now. */
export function isPlaceholder(path: string): boolean {
  return held.has(path);
}

/** Whether `path` is a placeholder held now and, if a command could reach it, still as made. */
export async function intactPlaceholder(path: string): Promise<boolean> {
  const entry = held.get(path);
  if (!entry) return false;
  if (!entry.exposed) return true;
  const stat = await fs.lstat(path).catch(() => null);
  if (stat?.ino !== entry.ino || !stat.isDirectory()) return false;
  return (await fs.readdir(path).catch(() => [null])).length === 0;
}
