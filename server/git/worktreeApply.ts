// Bringing a thread's worktree into the user's working tree. Its uncommitted changes are first
// committed on its branch (by Threadline), then: when the workspace is clean and still on the base,
// its branch fast-forwards to the worktree's branch (a merge: the commits come along); otherwise each
// changed file is brought over by hand, three ways (base, workspace, thread) with `git merge-file -p`,
// which reads no attributes and runs no merge driver. A file the user changed too is merged and
// listed; a conflict keeps both sides (markers in the file, or the thread's version beside it) and is
// listed file by file. The index and HEAD of the workspace are never touched in that case.
import { promises as fs } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Static } from '@sinclair/typebox';
import type { WorktreeApplyResponse, WorktreeConflict } from '../protocol/worktreeMethods';
import { openChangingHostGit, type HostGit } from './hostGit';
import { changedFiles, unsafeToWrite, writeFile } from './worktreeFiles';
import { THREADLINE_IDENTITY, type WorktreeLink } from './worktrees';

type ApplyResult = Static<typeof WorktreeApplyResponse>;

/** The worktree's state as one commit on its branch: its uncommitted changes committed first. */
async function snapshot(link: WorktreeLink): Promise<string> {
  const git = await openChangingHostGit(link.worktreePath, THREADLINE_IDENTITY);
  if ((await changedFiles(link.worktreePath)).length > 0) {
    await git(['add', '--all', '--', '.']);
    await git(['commit', '--quiet', '--no-verify', '-m', `Threadline: changes of thread ${link.threadId}`]);
  }
  return (await git(['rev-parse', 'HEAD'])).trim();
}

export async function applyWorktree(link: WorktreeLink): Promise<ApplyResult> {
  const tip = await snapshot(link);
  const result: ApplyResult = {
    mode: 'none',
    branch: link.branch,
    commit: tip,
    applied: [],
    merged: [],
    conflicts: [],
    skipped: [],
  };
  if (tip === link.baseSha) return result;
  const git = await openChangingHostGit(link.repoRoot);
  const head = (await git(['rev-parse', '--verify', '--quiet', 'HEAD'], [0, 1])).trim();
  const changes = await changesOf(git, link.baseSha, tip);
  if (head === link.baseSha && (await changedFiles(link.repoRoot)).length === 0) {
    await git(['merge', '--ff-only', '--quiet', tip]);
    return { ...result, mode: 'merge', applied: changes.map((c) => c.path) };
  }
  result.mode = 'patch';
  const scratch = await mkdtemp(join(tmpdir(), 'threadline-apply-'));
  try {
    for (const change of changes) await bringOver(git, link, change, scratch, result);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return result;
}

interface Change {
  path: string;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
  status: string;
}

/** `git diff --raw` between two commits, renames as a deletion and an addition. */
async function changesOf(git: HostGit, from: string, to: string): Promise<Change[]> {
  const out = await git(['diff', '--raw', '-z', '--no-renames', '--no-abbrev', from, to, '--']);
  const parts = out.split('\0');
  const changes: Change[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [oldMode, newMode, oldBlob, newBlob, status] = parts[i]!.replace(/^:/, '').split(' ');
    changes.push({
      path: parts[i + 1]!,
      oldMode: oldMode!,
      newMode: newMode!,
      oldBlob: oldBlob!,
      newBlob: newBlob!,
      status: status!,
    });
  }
  return changes;
}

const isBinary = (data: Buffer | null) => data !== null && data.subarray(0, 8000).includes(0);
const same = (a: Buffer | null, b: Buffer | null) => (a === null ? b === null : b !== null && a.equals(b));

async function bringOver(
  git: HostGit,
  link: WorktreeLink,
  change: Change,
  scratch: string,
  result: ApplyResult,
): Promise<void> {
  const { path } = change;
  const root = link.repoRoot;
  const special = (mode: string) => mode === '120000' || mode === '160000';
  if (special(change.oldMode) || special(change.newMode)) {
    result.skipped.push({ path, reason: 'symbolic links and submodules are not brought over' });
    return;
  }
  const unsafe = await unsafeToWrite(root, path);
  if (unsafe !== null) {
    result.skipped.push({ path, reason: unsafe });
    return;
  }
  const target = join(root, path);
  const base = /^0+$/.test(change.oldBlob) ? null : await readBlob(git, change.oldBlob);
  const theirs = /^0+$/.test(change.newBlob) ? null : await worktreeFile(link, path);
  const ours = await fs.readFile(target).catch(() => null);
  if (same(ours, base)) {
    await writeFile(target, theirs, change.newMode);
    result.applied.push(path);
    return;
  }
  if (same(ours, theirs)) {
    result.applied.push(path);
    return;
  }
  const conflict = (c: Omit<WorktreeConflict, 'path'>) => result.conflicts.push({ path, ...c });
  if (theirs === null) {
    conflict({
      resolution: 'oursKept',
      theirsPath: null,
      reason: 'deleted in the thread, changed in the workspace',
    });
    return;
  }
  if (ours === null || isBinary(ours) || isBinary(theirs) || isBinary(base)) {
    const beside = await besidePath(target);
    await writeFile(beside, theirs, change.newMode);
    conflict({
      resolution: 'theirsBeside',
      theirsPath: beside
        .slice(root.length + 1)
        .split('\\')
        .join('/'),
      reason:
        ours === null ? 'deleted in the workspace, changed in the thread' : 'changed on both sides (binary)',
    });
    return;
  }
  const files = ['workspace', 'base', 'thread'].map((name) => join(scratch, name));
  await Promise.all([
    fs.writeFile(files[0]!, ours),
    fs.writeFile(files[1]!, base ?? ''),
    fs.writeFile(files[2]!, theirs),
  ]);
  // merge-file exits with the number of conflicts (negative on error, which fails the call).
  const merged = await git(
    ['merge-file', '-p', '-L', 'workspace', '-L', 'base', '-L', `thread ${change.path}`, ...files],
    Array.from({ length: 128 }, (_, i) => i),
  );
  const clean = !merged.includes('\n<<<<<<< workspace') && !merged.startsWith('<<<<<<< workspace');
  await fs.writeFile(target, merged);
  if (clean) result.merged.push(path);
  else conflict({ resolution: 'markers', theirsPath: null, reason: 'changed on both sides' });
}

/**
 * The base's bytes. The wrapper answers text, so a binary base can come back altered: it then only
 * fails to compare equal, and the file is treated as changed on both sides (nothing is lost).
 */
async function readBlob(git: HostGit, sha: string): Promise<Buffer> {
  return Buffer.from(await git(['cat-file', 'blob', sha]), 'utf8');
}

/** The thread's version, read from its worktree (just committed as it is), a plain file only. */
async function worktreeFile(link: WorktreeLink, path: string): Promise<Buffer> {
  const file = join(link.worktreePath, path);
  const info = await fs.lstat(file);
  if (!info.isFile()) throw new Error(`${path} in the worktree is no longer a plain file`);
  return fs.readFile(file);
}

/** `<file>.threadline`, or `.threadline-2`… when that exists. */
async function besidePath(target: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = `${target}.threadline${n === 1 ? '' : `-${n}`}`;
    if (!(await fs.stat(candidate).catch(() => null))) return candidate;
  }
}
