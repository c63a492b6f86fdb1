// Works out everything a patch would do before anything is written: reads the files it touches,
// applies its sections in order over an in-memory view of them (so a later section sees an earlier
// one's result), and yields the protocol's `changes` and the exact bytes to write. Any section
// that does not fit fails the whole patch with a message the model can act on.
import { promises as fs } from 'node:fs';
import nodePath, { resolve, type PlatformPath } from 'node:path';
import type { FileUpdateChange } from '../../protocol/fileChange';
import { LinkLoopError, realTarget } from '../../sandbox/realTarget';
import { applyChunks } from './applyChunks';
import type { PatchHunk } from './parsePatch';
import { decodeText, encodeText, plainText } from './textFile';
import { unifiedHunks } from './unifiedDiff';

/** One file's state before and after the patch; null where the file does not exist. */
export interface FileWrite {
  /** The path as the patch names it (absolute), as items and diffs show it. */
  path: string;
  /** Where the write lands, symlinks resolved: what is checked and what is written. */
  target: string;
  before: Buffer | null;
  after: Buffer | null;
}

export interface PatchPlan {
  changes: FileUpdateChange[];
  /** Only the files whose bytes change, in the order the patch first touches them. */
  writes: FileWrite[];
}

/** A patch that cannot be applied to the files as they are; the message is written for the model. */
export class PatchPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchPlanError';
  }
}

export async function planPatch(hunks: PatchHunk[], cwd: string): Promise<PatchPlan> {
  if (hunks.length === 0) throw new PatchPlanError('the patch changes no files');
  const files = new FileView(cwd);
  const changes: FileUpdateChange[] = [];
  for (const hunk of hunks) changes.push(await planHunk(hunk, files));
  return { changes, writes: files.writes() };
}

async function planHunk(hunk: PatchHunk, files: FileView): Promise<FileUpdateChange> {
  const path = files.resolve(hunk.path);
  switch (hunk.type) {
    case 'add':
      await files.read(path);
      files.set(path, Buffer.from(hunk.contents, 'utf8'));
      return { path, kind: { type: 'add' }, diff: hunk.contents };
    case 'delete': {
      await refuseLink(path, 'delete', files);
      const before = await files.read(path);
      if (before === null) throw new PatchPlanError(`cannot delete ${files.show(path)}: no such file`);
      files.set(path, null);
      return { path, kind: { type: 'delete' }, diff: before.toString('utf8') };
    }
    case 'update': {
      const before = await files.read(path);
      if (before === null) {
        throw new PatchPlanError(
          `cannot update ${files.show(path)}: no such file (use '*** Add File:' to create one)`,
        );
      }
      const text = decodeText(before);
      if (text === null) throw new PatchPlanError(`cannot update ${files.show(path)}: it is not UTF-8 text`);
      const updated = { ...text, lines: applyChunks(text.lines, hunk.chunks, files.show(path)) };
      const after = encodeText(updated);
      const diff = unifiedHunks(plainText(text), plainText(updated));
      const movePath = hunk.movePath === null ? null : files.resolve(hunk.movePath);
      if (movePath !== null && movePath !== path) {
        await refuseLink(path, 'move', files);
        await files.read(movePath);
        files.set(path, null);
        files.set(movePath, after);
      } else {
        files.set(path, after);
      }
      return { path, kind: { type: 'update', move_path: movePath }, diff };
    }
  }
}

/**
 * Deleting or moving a name that is a symlink would remove the file it points to (the write lands
 * on the target) and leave the link dangling: refused, so the model removes the link with a command.
 */
async function refuseLink(path: string, verb: 'delete' | 'move', files: FileView): Promise<void> {
  const stat = await fs.lstat(path).catch(() => null);
  if (stat?.isSymbolicLink()) {
    throw new PatchPlanError(
      `cannot ${verb} ${files.show(path)}: it is a symbolic link, and apply_patch would ${verb} the file it points to. Change the link with a command instead.`,
    );
  }
}

/** The files as the patch sees them so far, over their contents on disk. */
class FileView {
  private readonly original = new Map<string, Buffer | null>();
  private readonly current = new Map<string, Buffer | null>();
  private readonly targets = new Map<string, string>();

  constructor(private readonly cwd: string) {}

  resolve(path: string): string {
    return resolve(this.cwd, path);
  }

  show(path: string): string {
    return shownPath(this.cwd, path);
  }

  async read(path: string): Promise<Buffer | null> {
    if (this.current.has(path)) return this.current.get(path) ?? null;
    const target = await this.targetOf(path);
    const bytes = await readFileOrNull(target, this.show(path));
    this.targets.set(path, target);
    this.original.set(path, bytes);
    this.current.set(path, bytes);
    return bytes;
  }

  /** The real target; two names for one file would each be planned from the same old bytes. */
  private async targetOf(path: string): Promise<string> {
    let target: string;
    try {
      target = await realTarget(path);
    } catch (error) {
      if (error instanceof LinkLoopError) throw new PatchPlanError(`${this.show(path)}: ${error.message}`);
      throw error;
    }
    for (const [other, seen] of this.targets) {
      if (seen === target) {
        throw new PatchPlanError(
          `${this.show(other)} and ${this.show(path)} are the same file (through a symbolic link): change it under one name`,
        );
      }
    }
    return target;
  }

  set(path: string, bytes: Buffer | null): void {
    this.current.set(path, bytes);
  }

  writes(): FileWrite[] {
    const writes: FileWrite[] = [];
    for (const [path, after] of this.current) {
      const before = this.original.get(path) ?? null;
      const same = before === null || after === null ? before === after : before.equals(after);
      if (!same) writes.push({ path, target: this.targets.get(path)!, before, after });
    }
    return writes;
  }
}

/**
 * A path as people read it in messages and diffs: relative to the working directory when inside it,
 * with `/` between names on every platform, as patches and git diffs spell paths (`a/src/x.ts`).
 */
export function shownPath(cwd: string, path: string, paths: PlatformPath = nodePath): string {
  const rel = paths.relative(cwd, path);
  return rel && !rel.startsWith('..') && !paths.isAbsolute(rel) ? rel.split(paths.sep).join('/') : path;
}

async function readFileOrNull(path: string, shown: string): Promise<Buffer | null> {
  try {
    // lstat: the target has its links resolved; a link here now was put there since.
    const stat = await fs.lstat(path);
    if (!stat.isFile()) throw new PatchPlanError(`${shown} is a directory or special file, not a file`);
    return await fs.readFile(path);
  } catch (error) {
    if (error instanceof PatchPlanError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ENOTDIR') throw new PatchPlanError(`${shown}: a parent of it is a file, not a directory`);
    throw new PatchPlanError(`cannot read ${shown} (${code ?? String(error)})`);
  }
}
