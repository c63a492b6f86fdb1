// What a review looks at, gathered before the review turn starts: the diff of the target (the
// working tree, a branch, a commit) read with git, or the user's own instructions. The diff goes
// to the reviewer in the request itself, so a review needs no tools.
import { openHostGit, type HostGit } from '../git/hostGit';
import type { ReviewTarget } from '../protocol/reviewMethods';

export interface ReviewRequest {
  /** A short label for enteredReviewMode ("current changes"). */
  label: string;
  /** The user message the turn shows. */
  userText: string;
  /** What the reviewer is sent. */
  prompt: string;
}

/** A target that cannot be reviewed (no repository, an unknown branch or commit). */
export class ReviewTargetError extends Error {}

export const REVIEW_INSTRUCTIONS = `You are reviewing a code change for another engineer. Find the problems the change introduces: bugs, broken edge cases, security issues, data loss, races, performance traps, and code that does not do what its author evidently meant. Ignore matters of taste and problems that were there before the change.

Answer in plain text. Start with one short paragraph: your overall verdict on whether the change is correct. Then list each finding as a bullet:
- <short title> — <file>:<start line>-<end line>
  <why it is a problem, in one to three sentences, and what would fix it>
Order findings by importance. If you find nothing worth fixing, say so plainly and list nothing.`;

const MAX_DIFF_BYTES = 256 * 1024;
const MAX_UNTRACKED = 50;
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export async function reviewRequest(target: ReviewTarget, cwd: string): Promise<ReviewRequest> {
  if (target.type === 'custom') {
    return { label: target.instructions, userText: target.instructions, prompt: target.instructions };
  }
  const root = await openHostGit(cwd)
    .then((git) => git(['rev-parse', '--show-toplevel']))
    .catch(() => {
      throw new ReviewTargetError(`${cwd} is not inside a git repository`);
    });
  const git = await openHostGit(root.trim());
  switch (target.type) {
    case 'uncommittedChanges':
      return describe(
        'current changes',
        'Review the current changes (staged, unstaged and untracked files)',
        await uncommittedDiff(git),
      );
    case 'baseBranch': {
      const base = await mergeBase(git, target.branch);
      return describe(
        `changes against '${target.branch}'`,
        `Review the changes against the base branch '${target.branch}'`,
        await git(['diff', '--no-color', base]),
      );
    }
    case 'commit': {
      const show = await git(['show', '--no-color', '--end-of-options', target.sha, '--']).catch(() => {
        throw new ReviewTargetError(`unknown commit ${target.sha}`);
      });
      const name = `commit ${target.sha.slice(0, 7)}${target.title ? `: ${target.title}` : ''}`;
      return describe(name, `Review ${name}`, show);
    }
  }
}

function describe(label: string, userText: string, diff: string): ReviewRequest {
  const body = diff.trim() === '' ? '(The diff is empty: there are no changes.)' : capped(diff);
  return { label, userText, prompt: `${userText}. The diff:\n\n${body}` };
}

function capped(diff: string): string {
  const bytes = Buffer.byteLength(diff);
  if (bytes <= MAX_DIFF_BYTES) return diff;
  const head = Buffer.from(diff).subarray(0, MAX_DIFF_BYTES).toString('utf8');
  return `${head}\n[… the diff is ${bytes} bytes; the rest was cut. Review what is shown.]`;
}

/** Tracked changes against HEAD (or the empty tree before the first commit), then untracked files. */
async function uncommittedDiff(git: HostGit): Promise<string> {
  const base = await git(['rev-parse', '--verify', '--quiet', 'HEAD']).then(
    () => 'HEAD',
    () => EMPTY_TREE,
  );
  const tracked = await git(['diff', '--no-color', base]);
  const untracked = (await git(['ls-files', '--others', '--exclude-standard', '-z']))
    .split('\0')
    .filter(Boolean);
  const added: string[] = [];
  for (const file of untracked.slice(0, MAX_UNTRACKED)) {
    // `git diff --no-index` exits 1 when the files differ, which they always do here.
    added.push(await git(['diff', '--no-color', '--no-index', '--', '/dev/null', file], [0, 1]));
  }
  const more =
    untracked.length > MAX_UNTRACKED
      ? `\n[… and ${untracked.length - MAX_UNTRACKED} more untracked files]`
      : '';
  return tracked + added.join('') + more;
}

/** Where the branch left off: from its upstream when it has one, as the reference does. */
async function mergeBase(git: HostGit, branch: string): Promise<string> {
  for (const ref of [`${branch}@{upstream}`, branch]) {
    const base = await git(['merge-base', '--end-of-options', 'HEAD', ref]).catch(() => null);
    if (base) return base.trim();
  }
  throw new ReviewTargetError(`no common ancestor of HEAD and branch '${branch}' (is the branch known?)`);
}
