// What a command did to the files under the writable roots, found by comparing snapshots taken
// before and after it. The content of every file a command might change has to be kept before it
// runs; a per-thread cache of (stat key → stored content) means a file is read and stored again
// only when it changed since the last command looked. Files too large, or beyond the byte budget of
// one snapshot, are not kept: changes to them become notes instead of silent gaps.
import { promises as fs } from 'node:fs';
import type { BlobStore } from './blobStore';
import type { FileRecord, FileState } from './turnRecord';
import { snapshotTree, type FileStat, type Snapshot } from './treeSnapshot';

export const CAPTURE_LIMITS = { maxFileBytes: 4 * 1024 * 1024, maxBytesPerSnapshot: 128 * 1024 * 1024 };

/** A file's content as stored for its stat key; null: seen, but too large to keep. */
export type ContentCache = Map<string, { key: string; state: FileState | null }>;

export interface CapturedChanges {
  changes: FileRecord[];
  notes: string[];
}

export class CommandCapture {
  private constructor(
    private readonly blobs: BlobStore,
    private readonly cache: ContentCache,
    private readonly roots: string[],
    private readonly before: Snapshot,
  ) {}

  /** Takes the picture before a command and keeps the content of every file in it. */
  static async start(blobs: BlobStore, cache: ContentCache, roots: string[]): Promise<CommandCapture> {
    const before = await snapshotTree(roots);
    let budget = CAPTURE_LIMITS.maxBytesPerSnapshot;
    for (const [path, stat] of before.files) {
      const cached = cache.get(path);
      if (cached?.key === stat.key) continue;
      const keep = stat.size <= CAPTURE_LIMITS.maxFileBytes && stat.size <= budget;
      if (keep) budget -= stat.size;
      cache.set(path, { key: stat.key, state: keep ? await store(blobs, path, stat) : null });
    }
    return new CommandCapture(blobs, cache, roots, before);
  }

  /** Compares with a new picture; `label` names the command in notes. */
  async finish(label: string): Promise<CapturedChanges> {
    const after = await snapshotTree(this.roots);
    const changes: FileRecord[] = [];
    const missed: string[] = [];
    const paths = new Set([...this.before.files.keys(), ...after.files.keys()]);
    for (const path of paths) {
      const old = this.before.files.get(path);
      const now = after.files.get(path);
      if (old && now && old.key === now.key) continue;
      const before = old ? (this.cache.get(path)?.state ?? null) : null;
      if (old && before === null) {
        missed.push(path);
        continue;
      }
      const state =
        now && now.size <= CAPTURE_LIMITS.maxFileBytes ? await store(this.blobs, path, now) : null;
      if (now && state === null) {
        missed.push(path);
        continue;
      }
      if (now) this.cache.set(path, { key: now.key, state });
      else this.cache.delete(path);
      if (before?.hash !== state?.hash || (before === null) !== (state === null))
        changes.push({ path, target: path, before, after: state });
    }
    const notes: string[] = [];
    const cutShort = this.before.cutShort ?? after.cutShort;
    if (cutShort)
      notes.push(
        `${label}: only part of the workspace was checked (${cutShort}); other changes it made cannot be undone here.`,
      );
    if (missed.length) {
      notes.push(
        `${label}: changes to ${missed.length} file(s) too large to keep cannot be undone here: ${missed.slice(0, 5).join(', ')}${missed.length > 5 ? ', …' : ''}`,
      );
    }
    return { changes, notes };
  }
}

/** Reads and stores a file; null when it vanished or changed size under us (not a stable read). */
async function store(blobs: BlobStore, path: string, stat: FileStat): Promise<FileState | null> {
  const bytes = await fs.readFile(path).catch(() => null);
  if (bytes === null || bytes.length !== stat.size) return null;
  return { hash: await blobs.put(bytes), mode: stat.mode };
}
