// Where a write to a path really lands: every component resolved, symlinks followed even when they
// dangle (`notes.txt -> /elsewhere/x` lands on /elsewhere/x, which does not exist yet). The part
// that does not exist is kept as written. Deciding on this path, and then writing to it rather than
// to the path as the model wrote it, is what keeps a link from leading a write out of the roots.
// Windows paths (`C:\repo`, `\\server\share\repo`, either slash) resolve by the same walk under
// their root; the path rules and the two filesystem calls are parameters so that walk is checked
// with `path.win32` on any machine.
import { promises as fs } from 'node:fs';
import { componentsOf, HOST_RULES, type PathRules } from '../fs/pathRules';

/** As many links as Linux follows before ELOOP. */
const MAX_LINKS = 40;

export class LinkLoopError extends Error {}

/** The filesystem calls the walk makes. */
export interface LinkReader {
  lstat(path: string): Promise<{ isSymbolicLink(): boolean } | null>;
  readlink(path: string): Promise<string>;
}

const hostLinks: LinkReader = {
  lstat: (path) => fs.lstat(path).catch(() => null),
  readlink: (path) => fs.readlink(path),
};

/** The real target of an absolute `path`. */
export async function realTarget(
  path: string,
  rules: PathRules = HOST_RULES,
  links: LinkReader = hostLinks,
): Promise<string> {
  const { join, resolve } = rules.path;
  const start = componentsOf(path, rules);
  let current = start.root;
  let pending = start.names;
  let followed = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      current = join(current, '..');
      continue;
    }
    const next = join(current, name);
    const stat = await links.lstat(next);
    if (stat === null) return join(next, ...pending);
    if (!stat.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++followed > MAX_LINKS) throw new LinkLoopError(`too many symbolic links in ${path}`);
    const link = componentsOf(await links.readlink(next), rules);
    // A link may name a new root (`/x`, `D:\x`, `\\server\share\x`); a relative one continues here.
    if (link.root !== '') current = resolve(current, link.root);
    pending = [...link.names, ...pending];
  }
  return current;
}
