// How paths compare on the disk a root lives on. Windows paths carry drive letters (`C:` is `c:`),
// UNC shares (`\\server\share`) and either slash, and the disk ignores case; a macOS volume may
// ignore case too, and then `.GIT/hooks` is the repository's own hooks folder. Every containment
// check takes these rules instead of assuming the host's `/` and exact case, so Windows semantics
// are checked with `path.win32` on any machine.
import { promises as fs } from 'node:fs';
import nodePath, { type PlatformPath } from 'node:path';

export interface PathRules {
  path: PlatformPath;
  /** Whether names differing only in case are the same file. */
  caseInsensitive: boolean;
}

/** The host's rules, before any volume is probed: Windows disks ignore case. */
export const HOST_RULES: PathRules = { path: nodePath, caseInsensitive: process.platform === 'win32' };

/** Windows rules, whatever the host: for checking Windows semantics anywhere. */
export const WINDOWS_RULES: PathRules = { path: nodePath.win32, caseInsensitive: true };

/** Whether `inside` is `parent` or lies under it (both absolute). */
export function isWithin(parent: string, inside: string, rules: PathRules = HOST_RULES): boolean {
  return relativeParts(parent, inside, rules) !== null;
}

/**
 * The names leading from `parent` down to `inside` ([] for the same path), or null when `inside`
 * is not under `parent`: another drive or share, or a `..` out of it.
 */
export function relativeParts(
  parent: string,
  inside: string,
  rules: PathRules = HOST_RULES,
): string[] | null {
  const { path } = rules;
  const fold = (p: string) => (rules.caseInsensitive ? p.toLowerCase() : p);
  const rel = path.relative(fold(path.resolve(parent)), fold(path.resolve(inside)));
  if (rel === '') return [];
  if (path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return parts[0] === '..' ? null : parts;
}

/** The names of an absolute path after its root (`C:\`, `\\server\share\`, `/`), either slash on Windows. */
export function componentsOf(path: string, rules: PathRules = HOST_RULES): { root: string; names: string[] } {
  const { root } = rules.path.parse(path);
  const rest = path.slice(root.length);
  const names = (rules.path === nodePath.win32 ? rest.split(/[\\/]/) : rest.split(rules.path.sep)).filter(
    (name) => name !== '',
  );
  return { root, names };
}

/** Stats a path; injectable so a case-insensitive volume can be tested on any disk. */
export type StatProbe = (path: string) => Promise<{ dev: number; ino: number } | null>;

const statProbe: StatProbe = (path) => fs.stat(path).catch(() => null);
const probed = new Map<string, Promise<boolean>>();

/**
 * Whether the volume holding `root` (an existing real path) ignores case, found once per root by
 * looking it up with its last lettered name's case flipped: the same file answers only on a
 * case-insensitive volume. Windows is always case-insensitive; a root with no letters in its
 * names keeps the host's default.
 */
export function volumeIgnoresCase(root: string, stat: StatProbe = statProbe): Promise<boolean> {
  if (HOST_RULES.caseInsensitive) return Promise.resolve(true);
  const cached = stat === statProbe ? probed.get(root) : undefined;
  if (cached) return cached;
  const answer = probeCase(root, stat);
  if (stat === statProbe) probed.set(root, answer);
  return answer;
}

async function probeCase(root: string, stat: StatProbe): Promise<boolean> {
  for (let dir = root; ; dir = nodePath.dirname(dir)) {
    const name = nodePath.basename(dir);
    const flipped = flipCase(name);
    if (flipped !== name) {
      const [real, other] = await Promise.all([
        stat(dir),
        stat(nodePath.join(nodePath.dirname(dir), flipped)),
      ]);
      return real !== null && other !== null && real.dev === other.dev && real.ino === other.ino;
    }
    if (nodePath.dirname(dir) === dir) return HOST_RULES.caseInsensitive;
  }
}

const flipCase = (name: string) =>
  [...name].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

/** The rules for comparing paths under `roots` (real paths): case-insensitive if any volume is. */
export async function rulesForRoots(roots: readonly string[], stat?: StatProbe): Promise<PathRules> {
  const ignores = await Promise.all(roots.map((root) => volumeIgnoresCase(root, stat)));
  return { path: nodePath, caseInsensitive: ignores.some(Boolean) };
}
