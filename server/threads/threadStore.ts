// The thread store: creates, reads, lists, renames, forks, archives and prunes threads. Rollouts
// are the source of truth; the index only makes listing fast. Ephemeral threads live in memory
// and are never written. Every operation on one thread runs after the previous one on it has
// finished, so appends never interleave, and a move never races a write. Threads of the user's
// Codex history (a second, read-only root) are listed and read beside ours and never written.
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Logger } from '../log';
import type { TurnError } from '../protocol/thread';
import { openCodexHistory, type CodexHistory } from './codexHistory';
import { listQuery, mergePages, type ListOptions, type ListPage } from './listing';
import {
  foldHistory,
  toSeconds,
  turnRecordsOf,
  type History,
  type RolloutRecord,
  type ThreadMeta,
} from './records';
import { ARCHIVED, AppendQueue, exists, mkdirFor, rolloutPath, unarchivedPath } from './rolloutFiles';
import { readRollout } from './rolloutReader';
import { HistoryError, ReadOnlyThreadError, ThreadNotFoundError, asWriteError } from './storeErrors';
import { previewOf, withRecords, type ThreadSummary } from './summary';
import { OwedRecords } from './owedRecords';
import { ThreadIndex } from './threadIndex';
import { uuidv7 } from './uuidv7';
import { renameRetrying } from '../fs/renameRetrying';

export interface StoreOptions {
  /** The Codex home whose history is listed and read beside ours; null or absent: none. */
  codexHome?: string | null;
}

/** `id`: one chosen beforehand (a thread in a git worktree named after it); absent, a new one. */
export type NewThread = Omit<ThreadMeta, 'id' | 'createdAt'> & { ephemeral?: boolean; id?: string };

interface EphemeralThread {
  summary: ThreadSummary;
  records: RolloutRecord[];
}

export class ThreadStore {
  /** Per-thread queue (keyed by thread id) for every rollout read and write. */
  private readonly queue = new AppendQueue();
  private readonly ephemeral = new Map<string, EphemeralThread>();
  private readonly owed = new OwedRecords();

  private constructor(
    private readonly home: string,
    private readonly index: ThreadIndex,
    private readonly log: Logger,
    private readonly codex: CodexHistory | undefined,
  ) {}

  /** Opens the store in a home directory (created on first write), loading or rebuilding its index. */
  static async open(home: string, log: Logger, options: StoreOptions = {}): Promise<ThreadStore> {
    const [index, codex] = await Promise.all([
      ThreadIndex.open(home, log),
      options.codexHome ? openCodexHistory(options.codexHome, home, log) : undefined,
    ]);
    return new ThreadStore(home, index, log, codex);
  }

  get(id: string): ThreadSummary | undefined {
    return this.ephemeral.get(id)?.summary ?? this.index.get(id) ?? this.codex?.get(id);
  }

  /** Whether the thread belongs to the Codex history: read here, continued only as a fork. */
  isCodex(id: string): boolean {
    return !this.ephemeral.has(id) && this.index.get(id) === undefined && this.codex?.get(id) !== undefined;
  }

  /** The newest of our threads forked from a thread (a Codex thread continued here), if any. */
  newestForkOf(id: string): ThreadSummary | undefined {
    const [newest] = this.index.forksOf(id);
    return newest === undefined ? undefined : this.index.get(newest);
  }

  /** Picks up what changed in the Codex history meanwhile (at most every few seconds). */
  async refresh(): Promise<void> {
    await this.codex?.refresh();
  }

  /** The thread's summary; ThreadNotFoundError when there is no such thread. */
  require(id: string): ThreadSummary {
    const summary = this.get(id);
    if (!summary) throw new ThreadNotFoundError(id);
    return summary;
  }

  isEphemeral(id: string): boolean {
    return this.ephemeral.has(id);
  }

  /** One page of stored threads; InvalidCursorError for a cursor this store did not issue. */
  list(options: ListOptions = {}): ListPage {
    const query = listQuery(options);
    const own = this.index.page(query);
    if (!this.codex?.size) return own;
    const codex = this.codex.page(query);
    // A thread in both homes (a copied file) is shown once, as ours.
    const data = codex.data.filter((summary) => this.index.get(summary.id) === undefined);
    return mergePages([own, { data, nextCursor: codex.nextCursor }], query);
  }

  /** Starts a thread, optionally with history (a fork's copied turns). */
  async create(thread: NewThread, history: RolloutRecord[] = []): Promise<ThreadSummary> {
    const now = Date.now();
    const { ephemeral, id, ...fields } = thread;
    const meta: ThreadMeta = { ...fields, id: id ?? uuidv7(now), createdAt: toSeconds(now) };
    const records: RolloutRecord[] = [{ type: 'session_meta', ts: now, meta }, ...history];
    const folded = foldHistory(meta, history);
    const summary: ThreadSummary = {
      ...meta,
      updatedAt: folded.updatedAt,
      name: folded.name,
      preview: previewOf(folded.firstUserText),
      archived: false,
      path: ephemeral ? '' : rolloutPath(meta.id, meta.createdAt, false),
    };
    if (ephemeral) {
      this.ephemeral.set(meta.id, { summary, records });
      return summary;
    }
    const absolute = join(this.home, summary.path);
    await this.queue.exclusive(meta.id, async () => {
      await mkdirFor(absolute);
      const written = await this.queue.write(absolute, records).catch(async (error: unknown) => {
        // Half a new rollout (a full disk) would come back as a thread at the next start.
        await fs.rm(absolute, { force: true }).catch(() => {});
        throw error;
      });
      await this.index.put(summary, written);
    });
    await this.index.folderChanged(dirname(absolute));
    return summary;
  }

  /** The thread's turns with rollback and revert markers applied. */
  history(id: string): Promise<History> {
    return this.exclusive(id, () => this.fold(id));
  }

  /** Appends records (turns, items, renames, markers) and refreshes the thread's summary. */
  append(id: string, records: RolloutRecord[]): Promise<ThreadSummary> {
    return this.exclusive(id, () => this.write(id, records));
  }

  /** Appends what `next` derives from the current history (a goal or metadata patch), nothing in between. */
  appendFrom(id: string, next: (history: History) => RolloutRecord[]): Promise<ThreadSummary> {
    return this.exclusive(id, async () => {
      const records = next(await this.fold(id));
      return records.length ? this.write(id, records) : this.require(id);
    });
  }

  /** Records that could not be written (a turn's end, after its writes failed): see OwedRecords. */
  owe(id: string, records: RolloutRecord[]): void {
    this.owed.owe(id, records);
  }

  setName(id: string, name: string | null): Promise<ThreadSummary> {
    return this.append(id, [{ type: 'name_set', ts: Date.now(), name }]);
  }

  /** Drops the last `numTurns` turns (a persisted marker) and returns the history that remains. */
  rollback(id: string, numTurns: number): Promise<History> {
    return this.exclusive(id, async () => {
      const { turns } = await this.fold(id);
      if (!Number.isInteger(numTurns) || numTurns < 1) {
        throw new HistoryError(`numTurns must be a positive integer, not ${numTurns}`);
      }
      if (numTurns > turns.length) {
        throw new HistoryError(`cannot roll back ${numTurns} turns: thread ${id} has ${turns.length}`);
      }
      return this.mark(id, { type: 'rollback', ts: Date.now(), numTurns });
    });
  }

  /** Drops a turn and every later one (a persisted marker) and returns the history that remains. */
  revert(id: string, beforeTurnId: string): Promise<History> {
    return this.exclusive(id, async () => {
      const { turns } = await this.fold(id);
      if (!turns.some((t) => t.id === beforeTurnId)) {
        throw new HistoryError(`turn ${beforeTurnId} is not in the history of thread ${id}`);
      }
      return this.mark(id, { type: 'revert', ts: Date.now(), beforeTurnId });
    });
  }

  /**
   * Records every turn still in progress as interrupted, for when the process that ran it is gone
   * (a crash or restart), and returns the history.
   */
  interruptOpenTurns(id: string, error: TurnError | null = null): Promise<History> {
    return this.exclusive(id, async () => {
      const open = (await this.fold(id)).turns.filter((turn) => turn.status === 'inProgress');
      if (!open.length) return this.fold(id);
      const ts = Date.now();
      await this.write(
        id,
        open.map((turn) => ({ type: 'turn_completed', ts, turnId: turn.id, status: 'interrupted', error })),
      );
      return this.fold(id);
    });
  }

  /**
   * Starts a new thread (forkedFromId = the source) holding a copy of the source's turns, up to
   * and including `lastTurnId` when given. Records are copied as written, times included.
   */
  async fork(id: string, thread: NewThread, lastTurnId?: string): Promise<ThreadSummary> {
    const copied = await this.exclusive(id, async () => {
      const records = await this.records(id);
      const first = records[0];
      if (first?.type !== 'session_meta')
        throw new HistoryError(`rollout of thread ${id} has no thread description`);
      const turns = foldHistory(first.meta, records.slice(1)).turns;
      const end = lastTurnId === undefined ? turns.length - 1 : turns.findIndex((t) => t.id === lastTurnId);
      if (end < 0 && lastTurnId !== undefined)
        throw new HistoryError(`turn ${lastTurnId} is not in the history of thread ${id}`);
      return turnRecordsOf(records, new Set(turns.slice(0, end + 1).map((t) => t.id)));
    });
    return this.create({ ...thread, forkedFromId: id }, copied);
  }

  /** Moves the rollout to archived_sessions/; archived threads are listed only with `archived`. */
  archive(id: string): Promise<ThreadSummary> {
    return this.exclusive(id, async () => {
      const summary = this.requirePersisted(id);
      if (summary.archived) return summary;
      return this.move(summary, join(ARCHIVED, basename(summary.path)), true);
    });
  }

  /** Moves the rollout back to its dated folder. */
  unarchive(id: string): Promise<ThreadSummary> {
    return this.exclusive(id, async () => {
      const summary = this.requirePersisted(id);
      if (!summary.archived) return summary;
      return this.move(summary, unarchivedPath(summary.path, summary.createdAt), false);
    });
  }

  /** Removes the thread for good: its rollout (archived or not) and its index entry. */
  delete(id: string): Promise<void> {
    return this.exclusive(id, async () => {
      if (this.isCodex(id)) throw new ReadOnlyThreadError(id);
      if (this.ephemeral.delete(id)) return;
      this.owed.settle(id);
      const summary = this.require(id);
      const path = join(this.home, summary.path);
      await fs.rm(path, { force: true }).catch((error: unknown) => Promise.reject(asWriteError(error, path)));
      await this.index.delete(id);
      await this.index.folderChanged(dirname(path));
    });
  }

  /** Finishes pending writes and saves a clean index; call once, at shutdown. */
  async close(): Promise<void> {
    await this.queue.flush();
    await Promise.all([this.index.close(), this.codex?.close()]);
  }

  /** Runs an operation on a thread after the previous one; unknown ids fail before it is queued. */
  private exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    try {
      this.require(id);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.queue.exclusive(id, task);
  }

  private requirePersisted(id: string): ThreadSummary {
    if (this.isCodex(id)) throw new ReadOnlyThreadError(id);
    if (this.ephemeral.has(id)) {
      throw new HistoryError(`thread ${id} is ephemeral: it is not stored, so it cannot be archived`);
    }
    return this.require(id);
  }

  private async move(summary: ThreadSummary, path: string, archived: boolean): Promise<ThreadSummary> {
    const from = join(this.home, summary.path);
    const to = join(this.home, path);
    await mkdirFor(to);
    await renameRetrying(from, to).catch(async (error: NodeJS.ErrnoException) => {
      // Another window's server made the same move first.
      if (!(await exists(to)))
        await this.vanished(summary.id, error).catch((failure) => Promise.reject(asWriteError(failure, to)));
    });
    const moved = { ...summary, path, archived };
    await this.index.put(moved, this.index.bytesOf(summary.id));
    await this.index.folderChanged(dirname(from));
    await this.index.folderChanged(dirname(to));
    return moved;
  }

  /** Appends records; call inside the thread's queue. */
  private async write(id: string, records: RolloutRecord[]): Promise<ThreadSummary> {
    if (this.isCodex(id)) throw new ReadOnlyThreadError(id);
    const ephemeral = this.ephemeral.get(id);
    if (ephemeral) {
      ephemeral.records.push(...records);
      ephemeral.summary = withRecords(ephemeral.summary, records);
      return ephemeral.summary;
    }
    const all = this.owed.before(id, records);
    const written = await this.onDisk(id, (path) => this.queue.write(path, all, { create: false }));
    this.owed.settle(id);
    // Read again after the write: the index may have learned something meanwhile.
    const summary = withRecords(this.require(id), all);
    await this.index.put(summary, this.index.bytesOf(id) + written);
    return summary;
  }

  /** Appends a marker, then refreshes the preview, which the marker may have pruned away. */
  private async mark(id: string, record: RolloutRecord): Promise<History> {
    const summary = await this.write(id, [record]);
    const history = await this.fold(id);
    const preview = previewOf(history.firstUserText);
    if (preview !== summary.preview) {
      const ephemeral = this.ephemeral.get(id);
      if (ephemeral) ephemeral.summary = { ...summary, preview };
      else await this.index.put({ ...summary, preview }, this.index.bytesOf(id));
    }
    return history;
  }

  /** The thread's records as JSON lines, whichever store holds it (a feedback bundle's copy). */
  async recordLines(id: string): Promise<string> {
    return this.exclusive(id, async () => (await this.records(id)).map((r) => JSON.stringify(r)).join('\n'));
  }

  private async fold(id: string): Promise<History> {
    const [first, ...rest] = await this.records(id);
    if (first?.type !== 'session_meta')
      throw new HistoryError(`rollout of thread ${id} has no thread description`);
    return foldHistory(first.meta, rest);
  }

  private async records(id: string): Promise<RolloutRecord[]> {
    const ephemeral = this.ephemeral.get(id);
    if (ephemeral) return ephemeral.records;
    const codex = this.isCodex(id) ? this.codex : undefined;
    if (codex) return codex.records(id);
    const { records } = await this.onDisk(id, (path) => readRollout(path, this.log));
    return this.owed.after(id, records);
  }

  /**
   * Runs a file operation on the thread's rollout. The server of another window on this home may
   * have archived or unarchived the thread meanwhile: then the file is found where it went, and the
   * operation runs there, so a turn in progress loses nothing.
   */
  private async onDisk<T>(id: string, operation: (path: string) => Promise<T>): Promise<T> {
    const summary = this.require(id);
    try {
      return await operation(join(this.home, summary.path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const moved = await this.movedElsewhere(summary);
      if (!moved) return this.vanished(id, error as NodeJS.ErrnoException);
      this.log.info(`thread ${id} was ${moved.archived ? 'archived' : 'unarchived'} by another process`);
      await this.index.put(moved, this.index.bytesOf(id));
      return operation(join(this.home, moved.path)).catch((again: NodeJS.ErrnoException) =>
        this.vanished(id, again),
      );
    }
  }

  private async movedElsewhere(summary: ThreadSummary): Promise<ThreadSummary | null> {
    const archived = !summary.archived;
    const path = archived
      ? join(ARCHIVED, basename(summary.path))
      : unarchivedPath(summary.path, summary.createdAt);
    return (await exists(join(this.home, path))) ? { ...summary, path, archived } : null;
  }

  /** A rollout gone from disk behind our back means the thread is gone: forget it and say so. */
  private async vanished(id: string, error: NodeJS.ErrnoException): Promise<never> {
    if (error.code !== 'ENOENT') throw error;
    this.log.warn(`the rollout of thread ${id} is gone; dropping it from the index`);
    await this.index.delete(id);
    throw new ThreadNotFoundError(id);
  }
}
