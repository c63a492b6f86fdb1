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
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { recordHeld, sweepLeftovers } from './placeholderLedger';
import { isProtected, isWithin, PROTECTED_NAMES, protectedEntry, type ProtectedSet } from './protectedPaths';

const held = new Map<string, number>();
let swept = false;

export interface Reserved {
  /** Placeholders this command holds (made now or by a command still running); `release` them. */
  placeholders: string[];
  /** Protected entries that exist in the command's folders, with what they point at (real paths). */
  existing: string[];
}

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
  const placeholders = new Set([...held.keys()].filter((path) => roots.some((root) => isWithin(root, path))));
  const existing: string[] = [];
  // A cwd inside a protected folder never gets here (workdir.ts refuses it); checked again, since a
  // placeholder made there would be a folder on the host that nothing asked for.
  const usable = folders.filter((folder) => !isProtected(folder, roots, set));
  for (const folder of new Set(usable)) {
    for (const name of PROTECTED_NAMES) {
      const path = join(folder, name);
      if (placeholders.has(path)) continue;
      const made = await fs.mkdir(path).then(
        () => true,
        () => false,
      );
      if (made) {
        placeholders.add(path);
        recordHeld([...held.keys(), ...placeholders]);
      }
      // Taken (by a folder, file, link or a differently cased name): bound read-only if it resolves.
      else existing.push(...(await protectedEntry(path)));
    }
  }
  for (const path of placeholders) held.set(path, (held.get(path) ?? 0) + 1);
  return { placeholders: [...placeholders], existing };
}

/** Lets go of placeholders; the last command holding one removes it, if it is still empty. */
export async function releasePlaceholders(placeholders: string[]): Promise<void> {
  for (const path of placeholders) {
    const count = (held.get(path) ?? 1) - 1;
    if (count > 0) {
      held.set(path, count);
      continue;
    }
    held.delete(path);
    await fs.rmdir(path).catch(() => {});
  }
  recordHeld([...held.keys()]);
}

/** Whether `path` is a placeholder some command holds now. */
export function isPlaceholder(path: string): boolean {
  return held.has(path);
}
