// What becomes of a thread's worktree when the thread itself is deleted or forked. The reference has no
// worktrees, so its thread/delete and thread/fork cannot say; the rules here keep work from being lost
// or shared unnoticed:
// - delete: a worktree with nothing to lose (no uncommitted file, no commit not on its base) goes with
//   the thread; one with work in it is refused, naming it, until it is applied or discarded;
// - fork: the fork would work in the same folder as its thread, two threads trampling one worktree (or
//   in a folder already removed), so it is refused unless the client names the fork's cwd itself.
import { promises as fs } from 'node:fs';
import {
  discardWorktree,
  forgetLink,
  readLink,
  worktreeLoss,
  WorktreeError,
  type WorktreeLink,
} from './worktrees';

/** Before a thread is deleted: its link, once it is sure the worktree can go; throws when it holds work. */
export async function worktreeToDelete(home: string, threadId: string): Promise<WorktreeLink | null> {
  const link = await readLink(home, threadId);
  if (link?.state !== 'ready') return link;
  const { uncommittedFiles, commits } = await worktreeLoss(link);
  if (uncommittedFiles.length === 0 && commits.length === 0) return link;
  const lost = [
    uncommittedFiles.length ? `${uncommittedFiles.length} uncommitted file(s)` : '',
    commits.length ? `${commits.length} commit(s) not applied` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  throw new WorktreeError(
    `thread ${threadId}'s worktree ${link.worktreePath} (${link.branch}) holds ${lost}: ` +
      'apply it (thread/worktree/apply) or discard it (thread/worktree/discard) first',
  );
}

/** After the thread is deleted: its worktree and branch removed (if still there), and its record. */
export async function deleteWorktreeOf(home: string, link: WorktreeLink): Promise<void> {
  if (link.state === 'ready') await discardWorktree(home, link);
  await forgetLink(home, link.threadId);
}

/** Refuses a fork that would share a worktree thread's folder without the client choosing it. */
export async function checkFork(
  home: string,
  threadId: string,
  cwd: string | null | undefined,
): Promise<void> {
  if (cwd) return;
  const link = await readLink(home, threadId);
  if (link === null || link.state === 'creating') return;
  const where = (await fs.stat(link.worktreePath).catch(() => null))
    ? `works in its own git worktree ${link.worktreePath} (${link.branch}), which a fork would share`
    : `worked in a git worktree that was discarded`;
  throw new WorktreeError(
    `thread ${threadId} ${where}: pass cwd to say where the fork works, or start a new worktree thread`,
  );
}
