// Where a write to a path really lands: every component resolved, symlinks followed even when they
// dangle (`notes.txt -> /elsewhere/x` lands on /elsewhere/x, which does not exist yet). The part
// that does not exist is kept as written. Deciding on this path, and then writing to it rather than
// to the path as the model wrote it, is what keeps a link from leading a write out of the roots.
import { promises as fs } from 'node:fs';
import { isAbsolute, join, parse, sep } from 'node:path';

/** As many links as Linux follows before ELOOP. */
const MAX_LINKS = 40;

export class LinkLoopError extends Error {}

/** The real target of an absolute `path`. */
export async function realTarget(path: string): Promise<string> {
  let current = parse(path).root;
  let pending = components(path);
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      current = join(current, '..');
      continue;
    }
    const next = join(current, name);
    const stat = await fs.lstat(next).catch(() => null);
    if (stat === null) return join(next, ...pending);
    if (!stat.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) throw new LinkLoopError(`too many symbolic links in ${path}`);
    const link = await fs.readlink(next);
    if (isAbsolute(link)) current = parse(link).root;
    pending = [...components(link), ...pending];
  }
  return current;
}

const components = (path: string) => path.split(sep).filter((part) => part !== '');
