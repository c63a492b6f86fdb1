// What a thread's worktree changed against its base, for the Threads tree's count and the "Review
// all changes" editor: tracked files compared with the base commit (committed on the branch or not)
// plus untracked files git does not ignore. Read-only git through the hardened wrapper.
import { openHostGit, type HostGit } from './hostGit';
import type { WorktreeLink } from './worktrees';

/** An untracked file's diff is one git run each: a review of thousands stops there. */
const MAX_UNTRACKED_DIFFS = 500;

export interface WorktreeChanges {
  changedFiles: string[];
  diff: string | null;
}

export async function worktreeChanges(link: WorktreeLink, includeDiff: boolean): Promise<WorktreeChanges> {
  const git = await openHostGit(link.worktreePath);
  const names = (out: string) => out.split('\0').filter((name) => name !== '');
  const tracked = names(await git(['diff', '--name-only', '-z', '--no-renames', link.baseSha, '--']));
  const untracked = names(await git(['ls-files', '--others', '--exclude-standard', '-z']));
  const changedFiles = [...new Set([...tracked, ...untracked])].sort();
  if (!includeDiff) return { changedFiles, diff: null };
  return { changedFiles, diff: await diffOf(git, link.baseSha, untracked) };
}

async function diffOf(git: HostGit, baseSha: string, untracked: string[]): Promise<string> {
  const parts = [await git(['diff', '--no-color', '--no-renames', baseSha, '--'])];
  for (const path of untracked.slice(0, MAX_UNTRACKED_DIFFS)) {
    // Exits with 1 when the files differ, which they do.
    parts.push(await git(['diff', '--no-color', '--no-index', '--', '/dev/null', path], [0, 1]));
  }
  return parts.join('');
}
