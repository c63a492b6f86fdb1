// Where a write made on a repository's behalf really lands, and whether it may. A repository
// controls its own files, links included: `.threadline -> ~/.threadline` or `AGENTS.md ->
// ~/.ssh/authorized_keys` turn a write "into the repository" into a write into the user's own
// setup. So every component is resolved (links, even dangling ones, `..`, and the case a
// case-insensitive filesystem stores) and the real target must stay inside the repository and out
// of the user's own configuration. Callers then write to the path returned, not to the one given.
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { defaultCodexHome } from '../threads/codexHistory';
import { isWithin } from '../sandbox/protectedPaths';
import { realTarget } from '../sandbox/realTarget';

export class ContainmentError extends Error {}

export interface Boundary {
  /** The folder every write (or copy) must stay in: a repository's, a marketplace's. */
  root: string;
  /** How errors name the root: "the repository". */
  rootName: string;
  /** The user's own configuration folders, never written on a repository's behalf. */
  userConfig: readonly string[];
  /** The user's home folder, when a root that is it, or holds it, is the user's own setup. */
  userHome: string | null;
}

/** The boundary of a repository at `root` for a server whose home is `threadlineHome`. */
export function repositoryBoundary(
  root: string,
  threadlineHome: string,
  env: NodeJS.ProcessEnv = process.env,
  userHome = homedir(),
): Boundary {
  return {
    root,
    rootName: 'the repository',
    userConfig: [threadlineHome, defaultCodexHome(env, userHome), join(userHome, '.agents')],
    userHome,
  };
}

/** The real path of `path`; the part that does not exist yet is kept as written. */
export async function realPathOf(path: string): Promise<string> {
  const target = await realTarget(path);
  // realTarget keeps each name as written; realpath (the C library's) gives the case stored on disk.
  const missing: string[] = [];
  for (let existing = target; ; existing = dirname(existing)) {
    const real = await fs.realpath(existing).catch(() => null);
    if (real !== null) return join(real, ...missing.reverse());
    if (dirname(existing) === existing) return target;
    missing.push(basename(existing));
  }
}

/**
 * The real path of `path` when a repository may write (or be copied from) there; otherwise a
 * ContainmentError saying where it would have led.
 */
export async function containedPath(path: string, boundary: Boundary): Promise<string> {
  const root = await realPathOf(boundary.root);
  if (boundary.userHome !== null && isWithin(root, await realPathOf(boundary.userHome))) {
    throw new ContainmentError(
      `${boundary.root} is (or holds) your home folder: its files are your own setup, not a repository's`,
    );
  }
  const real = await realPathOf(path);
  if (!isWithin(root, real)) {
    throw new ContainmentError(`${path} leads to ${real}, outside ${boundary.rootName} ${boundary.root}`);
  }
  for (const folder of boundary.userConfig) {
    if (isWithin(await realPathOf(folder), real)) {
      throw new ContainmentError(`${path} leads to ${real}, inside your own configuration ${folder}`);
    }
  }
  return real;
}
