// Around one sandboxed command: protected names kept from being created where they can be
// predicted (placeholders.ts, on Linux; the macOS profile refuses them by pattern anywhere), and
// whatever got created elsewhere found and moved aside once it ends (newProtectedNames.ts).
import { promises as fs } from 'node:fs';
import { isWithin } from './protectedPaths';
import { releasePlaceholders, reservePlaceholders, type Reserved } from './placeholders';
import { quarantineNew, snapshotNames, type NameSnapshot, type Quarantined } from './newProtectedNames';
import type { Confinement } from './writableRoots';

export interface NameGuard {
  roots: string[];
  /** The placeholders this command holds, when it has any. */
  reserved: Reserved | null;
  before: NameSnapshot;
}

export interface NameReport {
  quarantined: Quarantined[];
  /** False when the roots held more folders than the walk looks at. */
  complete: boolean;
}

/**
 * Sets up the guard for a command starting in `cwd`; with `placeholders`, returns the confinement
 * with them (and the protected entries of the cwd) read-only.
 */
export async function guardNames(
  confinement: Confinement,
  cwd: string,
  placeholders: boolean,
): Promise<{ confinement: Confinement; guard: NameGuard | null }> {
  const writable = confinement.writableRoots;
  if (writable === null || writable.length === 0) return { confinement, guard: null };
  const roots = writable.map(({ root }) => root);
  let reserved: Reserved | null = null;
  let withPlaceholders = confinement;
  if (placeholders) {
    const realCwd = await fs.realpath(cwd).catch(() => null);
    const folders =
      realCwd !== null && roots.some((root) => isWithin(root, realCwd)) ? [...roots, realCwd] : roots;
    const set = { paths: writable.flatMap((root) => root.readOnly), hidden: confinement.hidden };
    reserved = await reservePlaceholders(folders, roots, set);
    const { placeholders: held, existing } = reserved;
    // bubblewrap binds every read-only path after all the roots, whichever root lists it.
    withPlaceholders = {
      ...confinement,
      writableRoots: writable.map((root, i) =>
        i === 0 ? { ...root, readOnly: [...root.readOnly, ...held, ...existing] } : root,
      ),
    };
  }
  return {
    confinement: withPlaceholders,
    guard: { roots, reserved, before: await snapshotNames(roots) },
  };
}

/** After the command: moves aside what it created, then lets go of the placeholders. */
export async function releaseNames(guard: NameGuard): Promise<NameReport> {
  const after = await snapshotNames(guard.roots);
  const quarantined = await quarantineNew(guard.before, after);
  if (guard.reserved) await releasePlaceholders(guard.reserved);
  return { quarantined, complete: after.complete };
}

/**
 * Told to the model when a sandboxed command failed saying a protected name, so that it asks to
 * run outside the sandbox rather than working around the refusal.
 */
export function protectedNameHint(output: string): string | null {
  if (!/\.(git|threadline|codex|vscode)\b/i.test(output)) return null;
  return 'in the sandbox, .git, .threadline, .codex and .vscode cannot be created or changed, whether or not they exist (a missing one reads as an empty read-only folder). If the command must create or change one (e.g. `git init`), run it again with sandbox_permissions "require_escalated" and a justification: the user can approve running it outside the sandbox.';
}
