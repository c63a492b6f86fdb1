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
import { realTarget } from '../sandbox/realTarget';
import { isWithin, rulesForRoots, type PathRules } from './pathRules';

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
  const realRoot = await realPathOf(boundary.root);
  const real = await realPathOf(path);
  const userConfig = await Promise.all(boundary.userConfig.map(realPathOf));
  const userHome = boundary.userHome === null ? null : await realPathOf(boundary.userHome);
  const problem = containmentProblem(
    { path, real, realRoot, realUserHome: userHome, realUserConfig: userConfig },
    boundary,
    await rulesForRoots([realRoot]),
  );
  if (problem !== null) throw new ContainmentError(problem);
  return real;
}

export interface ResolvedWrite {
  path: string;
  /** The real paths of the write, the root, the user's home and configuration folders. */
  real: string;
  realRoot: string;
  realUserHome: string | null;
  realUserConfig: readonly string[];
}

/** Why a write whose paths are resolved may not happen, by the disk's `rules`; null when it may. */
export function containmentProblem(
  write: ResolvedWrite,
  boundary: Boundary,
  rules: PathRules,
): string | null {
  const { path, real, realRoot, realUserHome, realUserConfig } = write;
  if (realUserHome !== null && isWithin(realRoot, realUserHome, rules)) {
    return `${boundary.root} is (or holds) your home folder: its files are your own setup, not a repository's`;
  }
  if (!isWithin(realRoot, real, rules)) {
    return `${path} leads to ${real}, outside ${boundary.rootName} ${boundary.root}`;
  }
  const inConfig = realUserConfig.findIndex((folder) => isWithin(folder, real, rules));
  if (inConfig >= 0) {
    return `${path} leads to ${real}, inside your own configuration ${boundary.userConfig[inConfig]}`;
  }
  return null;
}
