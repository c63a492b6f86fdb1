// Where a working directory's skills come from, most specific first: the repository's
// `.agents/skills` folders from the cwd up to the git root, then the user's own folders
// (`$THREADLINE_HOME/skills`, `~/.agents/skills`), the client's extra user roots, and the skills
// of installed plugins.
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { SkillRoot } from './skillScan';

export interface RootSources {
  home: string;
  cwd: string;
  extraUserRoots: string[];
  pluginRoots: SkillRoot[];
}

export async function skillRoots(sources: RootSources): Promise<SkillRoot[]> {
  const cwd = resolve(sources.cwd);
  const top = (await gitRoot(cwd)) ?? cwd;
  const realTop = await fs.realpath(top).catch(() => top);
  const repo: SkillRoot[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    repo.push({ path: join(dir, '.agents', 'skills'), scope: 'repo', confineTo: realTop });
    if (dir === top || dirname(dir) === dir) break;
  }
  const user: SkillRoot[] = [
    join(sources.home, 'skills'),
    join(homedir(), '.agents', 'skills'),
    ...sources.extraUserRoots.map((root) => resolve(root)),
  ].map((path) => ({ path, scope: 'user' }));
  return [...repo, ...user, ...sources.pluginRoots];
}

/** The folder holding `.git` (folder or worktree file) at or above `cwd`, if any. */
async function gitRoot(cwd: string): Promise<string | null> {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (await fs.lstat(join(dir, '.git')).catch(() => null)) return dir;
    if (dirname(dir) === dir) return null;
  }
}
