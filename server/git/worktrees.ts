// A thread's own git worktree: a branch `threadline/<base>-<id>` and a checkout of it under
// `$THREADLINE_HOME/worktrees/<repo>/<thread>`, outside the workspace so the user's watchers, search and
// language servers do not see the files twice. Every git call goes through the hardened wrapper
// (hostGit.ts): the repository is attacker input. The link between thread and worktree is kept in a
// small record per thread (`worktree-links/<thread>.json` in the home), written before git runs, so
// a server killed half-way leaves a record saying what to clean up.
import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import { WORKTREES_FOLDER } from '../sandbox/protectedPaths';
import { HostGitError, openChangingHostGit, openHostGit } from './hostGit';
import { carryChanges } from './worktreeCarry';
import { changedFiles } from './worktreeFiles';

export interface WorktreeLink {
  threadId: string;
  /** The main working tree the worktree was made from (its top level). */
  repoRoot: string;
  worktreePath: string;
  branch: string;
  /** The commit the branch started from. */
  baseSha: string;
  /**
   * `creating` until git has made both branch and worktree; `discarded` once removed (the record
   * stays, so the thread is still listed with the workspace it was started from).
   */
  state: 'creating' | 'ready' | 'discarded';
}

/** A worktree that cannot be made, found or changed; the message is for the client. */
export class WorktreeError extends Error {}

/** Who makes Threadline's own commits in a worktree (its uncommitted changes, before an apply). */
export const THREADLINE_IDENTITY = { name: 'Threadline', email: 'threadline@localhost' };

const linksFolder = (home: string) => join(home, 'worktree-links');
const linkFile = (home: string, threadId: string) => join(linksFolder(home), `${threadId}.json`);

/** A name safe in a path and a branch: letters, digits, dots, dashes. */
function slug(text: string, fallback: string): string {
  const cleaned = text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .replace(/\.{2,}/g, '.')
    .slice(0, 40);
  return cleaned || fallback;
}

export async function readLink(home: string, threadId: string): Promise<WorktreeLink | null> {
  const text = await fs.readFile(linkFile(home, threadId), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return JSON.parse(text) as WorktreeLink;
  } catch {
    return null;
  }
}

/** A deleted thread's record goes (its worktree already removed). */
export async function forgetLink(home: string, threadId: string): Promise<void> {
  await fs.rm(linkFile(home, threadId), { force: true });
}

async function writeLink(home: string, link: WorktreeLink): Promise<void> {
  await fs.mkdir(linksFolder(home), { recursive: true });
  const path = linkFile(home, link.threadId);
  await fs.writeFile(`${path}.tmp`, JSON.stringify(link, null, 2));
  await fs.rename(`${path}.tmp`, path);
}

/** The worktree's link, or a clear error for a thread that has none. */
export async function requireLink(home: string, threadId: string): Promise<WorktreeLink> {
  const link = await readLink(home, threadId);
  if (link?.state === 'discarded') {
    throw new WorktreeError(`the worktree of thread ${threadId} was discarded`);
  }
  if (link === null || link.state !== 'ready') {
    throw new WorktreeError(`thread ${threadId} was not started in a git worktree`);
  }
  return link;
}

export interface WorktreeOptions {
  /** The commit-ish to branch from; HEAD when absent. */
  base?: string | null;
  /** Copy the workspace's uncommitted changes into the new worktree (base must be HEAD's commit). */
  carryChanges?: boolean | null;
}

/** Makes the branch and worktree for a thread about to start in `cwd`; answers its link. */
export async function createWorktree(
  home: string,
  threadId: string,
  cwd: string,
  options: WorktreeOptions,
): Promise<WorktreeLink> {
  const base = options.base ?? undefined;
  const probe = await openHostGit(cwd).catch(() => null);
  const top = await probe?.(['rev-parse', '--show-toplevel']).catch(() => null);
  if (!probe || !top) throw new WorktreeError(`${cwd} is not inside a git repository`);
  const repoRoot = top.trim();
  const git = await openChangingHostGit(repoRoot);
  const ref = base ?? 'HEAD';
  const baseSha = (
    await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], [0, 1])
  ).trim();
  if (!baseSha) throw new WorktreeError(`${ref} is not a commit of ${repoRoot}`);
  if (options.carryChanges) {
    const head = (await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], [0, 1])).trim();
    if (head !== baseSha) {
      throw new WorktreeError(`uncommitted changes are carried only onto HEAD's commit, not onto ${ref}`);
    }
  }
  const baseName = base ?? (await git(['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
  const branch = `threadline/${slug(baseName === 'HEAD' ? 'detached' : baseName, 'thread')}-${threadId.slice(-8)}`;
  const worktreePath = join(home, WORKTREES_FOLDER, slug(basename(repoRoot), 'repo'), threadId);
  const link: WorktreeLink = { threadId, repoRoot, worktreePath, branch, baseSha, state: 'creating' };
  await writeLink(home, link);
  try {
    await fs.mkdir(join(worktreePath, '..'), { recursive: true });
    await git(['worktree', 'add', '--quiet', '-b', branch, '--end-of-options', worktreePath, baseSha]);
    // Still `creating`: a server killed while it copies leaves a worktree the next start removes.
    if (options.carryChanges) await carryChanges(repoRoot, worktreePath);
  } catch (error) {
    await removeWorktree(link).catch(() => undefined);
    await forgetLink(home, threadId);
    throw new WorktreeError(`git could not create the worktree: ${(error as Error).message}`);
  }
  const ready: WorktreeLink = { ...link, worktreePath: await fs.realpath(worktreePath), state: 'ready' };
  await writeLink(home, ready);
  return ready;
}

export interface WorktreeLoss {
  uncommittedFiles: string[];
  commits: { sha: string; subject: string }[];
}

/** What removing the worktree and branch would lose: uncommitted files and commits not on the base. */
export async function worktreeLoss(link: WorktreeLink): Promise<WorktreeLoss> {
  const exists = await fs.stat(link.worktreePath).catch(() => null);
  const uncommittedFiles = exists ? await changedFiles(link.worktreePath) : [];
  const git = await openHostGit(link.repoRoot);
  const log = await git(
    ['rev-list', '--format=%H %s', '--no-commit-header', `${link.baseSha}..refs/heads/${link.branch}`, '--'],
    [0, 128],
  ).catch(() => '');
  const commits = log
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ sha: line.slice(0, line.indexOf(' ')), subject: line.slice(line.indexOf(' ') + 1) }));
  return { uncommittedFiles, commits };
}

/** After an apply: the worktree's base is now what was applied, so the next apply brings only what came after. */
export async function markApplied(home: string, link: WorktreeLink, commit: string): Promise<void> {
  await writeLink(home, { ...link, baseSha: commit });
}

/** Removes the worktree and its branch; the link stays, marked discarded. */
export async function discardWorktree(home: string, link: WorktreeLink): Promise<void> {
  await removeWorktree(link);
  await writeLink(home, { ...link, state: 'discarded' });
}

async function removeWorktree(link: WorktreeLink): Promise<void> {
  const git = await openChangingHostGit(link.repoRoot);
  const listed = await fs.stat(link.worktreePath).catch(() => null);
  if (listed) {
    await git(['worktree', 'remove', '--force', '--force', '--end-of-options', link.worktreePath]).catch(
      async (error: unknown) => {
        // Not a registered worktree (a half-made one): the folder goes, and git forgets it.
        if (!(error instanceof HostGitError)) throw error;
        await fs.rm(link.worktreePath, { recursive: true, force: true });
      },
    );
  }
  await git(['worktree', 'prune']).catch(() => undefined);
  await git(['branch', '-D', '--end-of-options', link.branch], [0, 1]).catch(() => undefined);
}

/** At start: worktrees whose creation a killed server left half-made are removed with their records. */
export async function cleanUpUnfinished(home: string): Promise<string[]> {
  const names = await fs.readdir(linksFolder(home)).catch(() => [] as string[]);
  const cleaned: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const link = await readLink(home, name.slice(0, -5));
    if (link?.state !== 'creating') continue;
    // No thread was made with it: the record goes too, once both worktree and branch are gone.
    if (await removeUntilGone(link)) {
      await forgetLink(home, link.threadId);
      cleaned.push(link.worktreePath);
    }
  }
  return cleaned;
}

/** How long a cleanup waits, in turn, for a killed server's git to finish before trying again. */
const RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000];

/**
 * The git that a killed server started goes on running (it is not killed with its parent): it may
 * still be checking files out, re-making the folder and holding the branch. So the removal is
 * tried again until both are gone; false when they are still there (the record stays, for the
 * next start).
 */
async function removeUntilGone(link: WorktreeLink): Promise<boolean> {
  for (const delay of [...RETRY_DELAYS_MS, null]) {
    await removeWorktree(link).catch(() => undefined);
    if (await isGone(link)) return true;
    if (delay === null) return false;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  return false;
}

async function isGone(link: WorktreeLink): Promise<boolean> {
  if (await fs.stat(link.worktreePath).catch(() => null)) return false;
  const git = await openHostGit(link.repoRoot);
  const branch = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${link.branch}`], [0, 1]);
  return branch.trim() === '';
}

/**
 * The worktree folders of threads started from any of `cwds` (a repository's top level), so a
 * listing of a workspace's threads also finds its worktree threads, whose cwd is under the home.
 */
export async function worktreesOf(home: string, cwds: string[]): Promise<string[]> {
  const names = await fs.readdir(linksFolder(home)).catch(() => [] as string[]);
  if (names.length === 0) return [];
  const wanted = new Set(cwds);
  for (const cwd of cwds) wanted.add(await fs.realpath(cwd).catch(() => cwd));
  const found: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const link = await readLink(home, name.slice(0, -5));
    if (link && link.state !== 'creating' && wanted.has(link.repoRoot)) found.push(link.worktreePath);
  }
  return found;
}
