// The listing index: every thread's summary in memory (a SummaryTable), saved in the home as a
// snapshot and a journal of changes since (indexFiles.ts), so opening costs one JSON.parse and a short
// replay, never a read of every rollout. The journal is folded into a new snapshot every COMPACT_AFTER
// lines and at close.
//
// Staleness, checked when opening:
// - New, moved or deleted rollouts change their folder's mtime. The snapshot records the mtime of
//   every day folder and of archived_sessions as last seen; a folder whose mtime differs is re-read
//   and files the index does not know are summarized, so a stale index never hides a thread. We
//   stat a folder before listing it, so a file added while we look changes the mtime we missed; a
//   folder holding an unreadable file written in the last minute (perhaps still being written by
//   another process) is not marked as seen at all.
// - Appends change only the file. Each row records its rollout's size (kept in memory, journaled
//   only with changes a listing shows); when the last process did not close cleanly (a journal is
//   left over, or the snapshot is not marked clean) or another process used the same home
//   meanwhile, a background sweep stats every rollout and re-reads those whose size differs.
//   Listing works meanwhile.
// - No snapshot, an unreadable one, or another version: rebuilt from the rollouts.
// - Files that cannot be read as rollouts are remembered by path, size and mtime, so a folder
//   re-read later (or the next open) does not read them again until they change.
//
// The same index serves a second, read-only root (the Codex home): then the snapshot and journal
// live elsewhere under another name, and the rollouts are summarized by that root's reader.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Logger } from '../log';
import type { ListPage, ListQuery } from './listing';
import { AppendQueue, idFromFileName } from './rolloutFiles';
import {
  anyRecent,
  fileStamp,
  folderTime,
  listFolders,
  OWN_ROLLOUTS,
  rolloutsIn,
  type RolloutSummarizer,
  type Scanned,
  worthReading,
} from './rolloutScan';
import type { ThreadSummary } from './summary';
import { SummaryTable } from './summaryTable';
import {
  JOURNAL,
  othersJournaled,
  SNAPSHOT,
  snapshotStamp,
  VERSION,
  writeSnapshot,
  type Change,
  type IndexOptions,
  type JournalEntry,
  type Snapshot,
} from './indexFiles';

const COMPACT_AFTER = 2000;
const SWEEP_BATCH = 64;
const RESCAN_INTERVAL_MS = 1000;

export class ThreadIndex {
  private table = SummaryTable.empty();
  private folders: Record<string, number> = {};
  private unreadable: Record<string, string> = {};
  private readonly snapshotPath: string;
  private readonly journalPath: string;
  private readonly summarizer: RolloutSummarizer;
  /** Serializes journal appends and compactions, so a compaction never drops a line it did not fold in. */
  private readonly journal = new AppendQueue();
  private journalLines = 0;
  private readonly writer = randomBytes(6).toString('base64url');
  /** Open for business: changes are journaled (while opening they are folded into one snapshot). */
  private opened = false;
  /** Another process wrote this home's index while we had it open: our snapshot may miss its work. */
  private shared = false;
  /** The snapshot file's mtime and size as we last read or wrote it. */
  private snapshotStamp = '';
  private sweeping: Promise<void> | undefined;
  /** Every rollout is known to match its row (no sweep was needed, or one ran to the end). */
  private checked = true;
  /** The clean snapshot on disk holds all we know: closing need not write it again (a quick exit). */
  private upToDate = false;
  /** The last write of the index failed (said once in the log). */
  private unwritable = false;
  /** Threads changed while a sweep runs: the sweep leaves them alone. */
  private touched: Set<string> | undefined;
  private closing = false;
  /** When each folder was last listed after a change of ours, and the listings put off for later. */
  private readonly lastScan = new Map<string, number>();
  private readonly rescans = new Map<string, NodeJS.Timeout>();

  private constructor(
    private readonly home: string,
    private readonly log: Logger,
    private readonly options: IndexOptions,
  ) {
    const dir = options.dir ?? home;
    this.snapshotPath = join(dir, options.snapshot ?? SNAPSHOT);
    this.journalPath = join(dir, options.journal ?? JOURNAL);
    this.summarizer = options.summarizer ?? OWN_ROLLOUTS;
  }

  /** Opens the index of the rollouts under `home` (the rollout root). */
  static async open(home: string, log: Logger, options: IndexOptions = {}): Promise<ThreadIndex> {
    const index = new ThreadIndex(home, log, options);
    const state = await index.load();
    const changed = await index.reconcile();
    // A left-over journal is folded in now, so any journal line we see later is news.
    if (state === 'missing' || state === 'journaled' || changed) await index.save(() => index.compact(false));
    index.opened = true;
    index.upToDate = state === 'clean' && !changed;
    if (state === 'unclean' || state === 'journaled') {
      index.sweeping = index
        .sweep()
        .catch((error: Error) => log.warn(`checking the rollouts failed: ${error.message}`));
    }
    return index;
  }

  get(id: string): ThreadSummary | undefined {
    return this.table.get(id);
  }

  get size(): number {
    return this.table.size;
  }

  /** The rollout's size as of the last change the index knows of. */
  bytesOf(id: string): number {
    return this.table.bytesOf(id) ?? 0;
  }

  page(query: ListQuery): ListPage {
    return this.table.page(query);
  }

  /** The threads forked from a thread, newest first. */
  forksOf(id: string): string[] {
    return this.table.forksOf(id);
  }

  /** Adds or replaces a summary; `bytes` is the rollout's size once the change that caused it is on disk. */
  async put(thread: ThreadSummary, bytes: number): Promise<void> {
    this.touched?.add(thread.id);
    await this.record({ op: 'put', thread, bytes });
  }

  async delete(id: string): Promise<void> {
    this.touched?.add(id);
    await this.record({ op: 'del', id });
  }

  /**
   * After we created or moved a file in a folder: notes the folder's mtime, first indexing any
   * other new file there (another process's). Listing a folder costs as much as the threads it
   * holds, so a folder is listed at once at most every RESCAN_INTERVAL_MS; changes in between are
   * covered by one listing at the end of the interval (creating many threads in a day stays linear).
   * Files deleted behind our back are found at the next open, or when their thread is read.
   */
  async folderChanged(absoluteFolder: string): Promise<void> {
    const folder = relative(this.home, absoluteFolder);
    if (this.rescans.has(folder)) return;
    const wait = (this.lastScan.get(folder) ?? -Infinity) + RESCAN_INTERVAL_MS - Date.now();
    if (wait <= 0) return this.rescan(folder);
    const timer = setTimeout(() => {
      this.rescans.delete(folder);
      this.rescan(folder).catch((error: Error) => this.log.warn(`cannot list ${folder}: ${error.message}`));
    }, wait);
    this.rescans.set(folder, timer);
  }

  private async rescan(folder: string): Promise<void> {
    if (this.closing) return;
    this.lastScan.set(folder, Date.now());
    const mtimeMs = await folderTime(this.home, folder);
    if (mtimeMs === undefined) return;
    const files = await rolloutsIn(this.home, folder);
    if (await this.index(files.filter((path) => this.table.pathOf(idFromFileName(path)!) !== path))) {
      await this.record({ op: 'folder', folder, mtimeMs });
    }
  }

  /** Looks again for rollouts added, moved or removed behind our back (folders whose mtime moved). */
  async refresh(): Promise<void> {
    if (!this.closing) await this.reconcile();
  }

  /**
   * Stops the background sweep (if any) after its current batch and saves a snapshot, marked clean
   * unless the sweep was cut short or another process shares the home.
   */
  async close(): Promise<void> {
    this.closing = true;
    // A listing left for later only finds other processes' files, which the next open finds too.
    for (const timer of this.rescans.values()) clearTimeout(timer);
    this.rescans.clear();
    await this.sweeping;
    if (this.upToDate && !(await this.othersWrote())) return;
    await this.save(() => this.compact(true));
  }

  /** Applies a change, and journals it once open (while opening, the snapshot that follows has it). */
  private async record(change: Change): Promise<void> {
    if (!this.apply(change) || !this.opened) return;
    this.upToDate = false;
    await this.save(async () => {
      await this.journal.append(this.journalPath, [{ ...change, w: this.writer }]);
      if (++this.journalLines === COMPACT_AFTER) await this.compact(false);
    });
  }

  /**
   * Writes the index to disk; a home that cannot be written (full, read-only) leaves the index in
   * memory only, which listing is served from anyway: the rollouts stay the truth, and the next
   * start checks them. Said once, until a write succeeds again.
   */
  private async save(write: () => Promise<void>): Promise<void> {
    try {
      await write();
      this.unwritable = false;
    } catch (error) {
      this.checked = false;
      if (!this.unwritable)
        this.log.warn(`the thread index is kept in memory only: ${(error as Error).message}`);
      this.unwritable = true;
    }
  }

  /**
   * Applies a change in memory; false when it need not be journaled. A change of size alone is
   * not: every append makes one, and after a crash the sweep finds the sizes that moved.
   */
  private apply(change: Change): boolean {
    if (change.op === 'put') return this.table.put(change.thread, change.bytes) === 'changed';
    if (change.op === 'del') return this.table.delete(change.id);
    if (change.op === 'unreadable') {
      if ((this.unreadable[change.path] ?? null) === change.stamp) return false;
      if (change.stamp === null) delete this.unreadable[change.path];
      else this.unreadable[change.path] = change.stamp;
      return true;
    }
    if (this.folders[change.folder] === change.mtimeMs) return false;
    this.folders[change.folder] = change.mtimeMs;
    return true;
  }

  /** Reads snapshot and journal. */
  private async load(): Promise<'missing' | 'clean' | 'unclean' | 'journaled'> {
    let snapshot: Snapshot;
    try {
      snapshot = JSON.parse(await fs.readFile(this.snapshotPath, 'utf8')) as Snapshot;
      if (snapshot.version !== VERSION) throw new Error(`version ${String(snapshot.version)}`);
      if (this.options.dir !== undefined && snapshot.root !== this.home) throw new Error('another root');
      this.table = SummaryTable.fromSnapshot(snapshot);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.log.warn(
          `thread index unreadable, rebuilding it from the rollouts: ${(error as Error).message}`,
        );
      }
      return 'missing';
    }
    this.snapshotStamp = await snapshotStamp(this.snapshotPath);
    this.folders = { ...snapshot.folders };
    this.unreadable = { ...snapshot.unreadable };
    const journal = await fs.readFile(this.journalPath, 'utf8').catch(() => '');
    for (const line of journal.split('\n')) {
      if (!line) continue;
      try {
        this.apply(JSON.parse(line) as JournalEntry);
      } catch {
        this.log.warn('skipping an unreadable line of the thread index journal');
      }
    }
    if (journal !== '') return 'journaled';
    return snapshot.clean === true ? 'clean' : 'unclean';
  }

  /** Re-reads every rollout folder whose mtime is not the one recorded; true when any was. */
  private async reconcile(): Promise<boolean> {
    const current = await listFolders(this.home);
    const stale = [...current].filter(([folder, mtimeMs]) => this.folders[folder] !== mtimeMs);
    const gone = Object.keys(this.folders).filter((folder) => !current.has(folder));
    if (!stale.length && !gone.length) return false;
    const byFolder = new Map<string, string[]>();
    for (const id of this.table.ids()) {
      const folder = dirname(this.table.pathOf(id)!);
      const ids = byFolder.get(folder);
      if (ids) ids.push(id);
      else byFolder.set(folder, [id]);
    }
    for (const folder of gone) {
      for (const id of byFolder.get(folder) ?? []) this.apply({ op: 'del', id });
      delete this.folders[folder];
    }
    for (const [folder, mtimeMs] of stale) {
      const files = new Set(await rolloutsIn(this.home, folder));
      for (const path of Object.keys(this.unreadable)) {
        if (dirname(path) === folder && !files.has(path)) delete this.unreadable[path];
      }
      const ids = byFolder.get(folder) ?? [];
      for (const id of ids) if (!files.has(this.table.pathOf(id)!)) this.apply({ op: 'del', id });
      if (await this.index([...files].filter((path) => this.table.pathOf(idFromFileName(path)!) !== path))) {
        this.folders[folder] = mtimeMs;
      }
    }
    return true;
  }

  /**
   * Summarizes and records new files. False when one that could not be read was written in the
   * last minute: another process may be half-way through creating it, so its folder must not be
   * marked as seen (the next open looks again).
   */
  private async index(paths: string[]): Promise<boolean> {
    const fresh = await worthReading(this.home, paths, this.unreadable);
    const scanned: Scanned[] = [];
    const failed = await this.summarizer.many(this.home, fresh, this.log, (one) => scanned.push(one));
    for (const { summary, bytes } of scanned) {
      await this.record({ op: 'put', thread: summary, bytes });
      if (this.unreadable[summary.path] !== undefined) {
        await this.record({ op: 'unreadable', path: summary.path, stamp: null });
      }
    }
    const recent = await anyRecent(this.home, failed);
    // A file still being written (changed in the last minute) is read again next time.
    if (!recent) {
      for (const path of failed) {
        const stamp = await fileStamp(this.home, path);
        if (stamp !== undefined) await this.record({ op: 'unreadable', path, stamp });
      }
    }
    return !recent;
  }

  /** Re-reads rollouts whose size is not the one indexed (appends the index never heard of). */
  private async sweep(): Promise<void> {
    this.checked = false;
    const ids = [...this.table.ids()];
    this.touched = new Set();
    let done = 0;
    for (; done < ids.length && !this.closing; done += SWEEP_BATCH) {
      await Promise.all(ids.slice(done, done + SWEEP_BATCH).map((id) => this.verify(id)));
    }
    this.touched = undefined;
    this.checked = done >= ids.length;
  }

  private async verify(id: string): Promise<void> {
    const path = this.table.pathOf(id);
    if (!path || this.touched?.has(id)) return;
    const info = await fs.stat(join(this.home, path)).catch(() => undefined);
    if (info?.size === this.table.bytesOf(id)) return;
    const scanned = await this.summarizer.one(this.home, path, this.log);
    if (this.touched?.has(id)) return;
    if (scanned) await this.record({ op: 'put', thread: scanned.summary, bytes: scanned.bytes });
    else await this.record({ op: 'del', id });
  }

  /** Whether another process wrote the snapshot or the journal since we last looked. */
  private async othersWrote(): Promise<boolean> {
    if ((await snapshotStamp(this.snapshotPath)) !== this.snapshotStamp) return true;
    return othersJournaled(this.journalPath, this.writer);
  }

  /**
   * Folds everything in memory into a new snapshot and drops the journal. It runs in the journal's
   * queue: lines queued after it may repeat what the snapshot holds, which replays harmlessly.
   */
  private compact(clean: boolean): Promise<void> {
    this.journalLines = 0;
    return this.journal.exclusive(this.journalPath, async () => {
      // While opening, the journal is the previous process's, replayed above: not news.
      if (this.opened && !this.shared && (await this.othersWrote())) {
        this.shared = true;
        this.log.info('another process uses this thread index: the next start checks every rollout');
      }
      // Serialized before the first await: changes made while it is written belong to the next one.
      const snapshot: Snapshot = {
        version: VERSION,
        clean: clean && this.checked && !this.shared,
        folders: this.folders,
        unreadable: this.unreadable,
        ...(this.options.dir !== undefined ? { root: this.home } : {}),
        ...this.table.toSnapshot(),
      };
      await writeSnapshot({ snapshot: this.snapshotPath, journal: this.journalPath }, this.writer, snapshot);
      this.snapshotStamp = await snapshotStamp(this.snapshotPath);
    });
  }
}
