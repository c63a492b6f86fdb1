// The thread store: creates, reads, lists, renames, forks, archives and prunes threads. Rollouts
// are the source of truth; the index only makes listing fast. Ephemeral threads live in memory.
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Logger } from '../log';
import { listPage, type ListPage, type ListQuery } from './listing';
import { foldHistory, userMessageText, type History, type RolloutRecord, type ThreadMeta } from './records';
import {
  ARCHIVED,
  AppendQueue,
  SESSIONS,
  dayDir,
  dayDirOfFileName,
  readRollout,
  rolloutFileName,
} from './rolloutFiles';
import { previewOf, type ThreadSummary } from './summary';
import { ThreadIndex } from './threadIndex';
import { uuidv7 } from './uuidv7';

export class ThreadNotFoundError extends Error {
  constructor(readonly threadId: string) {
    super(`thread not found: ${threadId}`);
  }
}

export class HistoryError extends Error {}

export type NewThread = Omit<ThreadMeta, 'id' | 'createdAt'> & { ephemeral?: boolean };

interface EphemeralThread {
  summary: ThreadSummary;
  records: RolloutRecord[];
}

export class ThreadStore {
  private readonly writer = new AppendQueue();
  private readonly ephemeral = new Map<string, EphemeralThread>();

  private constructor(
    private readonly home: string,
    private readonly index: ThreadIndex,
    private readonly log: Logger,
  ) {}

  static async open(home: string, log: Logger): Promise<ThreadStore> {
    return new ThreadStore(home, await ThreadIndex.open(home, log), log);
  }

  get(id: string): ThreadSummary | undefined {
    return this.ephemeral.get(id)?.summary ?? this.index.get(id);
  }

  require(id: string): ThreadSummary {
    const summary = this.get(id);
    if (!summary) throw new ThreadNotFoundError(id);
    return summary;
  }

  isEphemeral(id: string): boolean {
    return this.ephemeral.has(id);
  }

  list(query: ListQuery): ListPage {
    return listPage(this.index.sortedBy(query.sortKey), query);
  }

  async create(thread: NewThread, history: RolloutRecord[] = []): Promise<ThreadSummary> {
    const now = Date.now();
    const { ephemeral, ...fields } = thread;
    const meta: ThreadMeta = { ...fields, id: uuidv7(now), createdAt: Math.floor(now / 1000) };
    const records: RolloutRecord[] = [{ type: 'session_meta', ts: now, meta }, ...history];
    const folded = foldHistory(meta, history);
    const path = ephemeral ? '' : join(SESSIONS, dayDir(now), rolloutFileName(meta.id, now));
    const summary: ThreadSummary = {
      ...meta,
      updatedAt: meta.createdAt,
      name: folded.name,
      preview: previewOf(folded.firstUserText),
      archived: false,
      path,
    };
    if (ephemeral) {
      this.ephemeral.set(meta.id, { summary, records });
      return summary;
    }
    const absolute = join(this.home, path);
    await fs.mkdir(dirname(absolute), { recursive: true, mode: 0o700 });
    await this.writer.append(absolute, records);
    await this.index.put(summary);
    await this.index.folderChanged(dirname(absolute));
    return summary;
  }

  async history(id: string): Promise<History> {
    const records = await this.records(id);
    const [first, ...rest] = records;
    if (first?.type !== 'session_meta')
      throw new HistoryError(`rollout of thread ${id} has no thread description`);
    return foldHistory(first.meta, rest);
  }

  /** Appends records (turns, items, renames, markers) and refreshes the thread's summary. */
  async append(id: string, records: RolloutRecord[]): Promise<ThreadSummary> {
    const summary = this.require(id);
    const updated: ThreadSummary = { ...summary, updatedAt: Math.floor(Date.now() / 1000) };
    for (const record of records) {
      if (record.type === 'name_set') updated.name = record.name;
      if (record.type === 'item' && !updated.preview)
        updated.preview = previewOf(userMessageText(record.item));
    }
    const ephemeral = this.ephemeral.get(id);
    if (ephemeral) {
      ephemeral.records.push(...records);
      ephemeral.summary = updated;
      return updated;
    }
    await this.writer.append(join(this.home, summary.path), records);
    await this.index.put(updated);
    return updated;
  }

  async setName(id: string, name: string | null): Promise<ThreadSummary> {
    return this.append(id, [{ type: 'name_set', ts: Date.now(), name }]);
  }

  async rollback(id: string, numTurns: number): Promise<History> {
    const before = await this.history(id);
    if (numTurns > before.turns.length) {
      throw new HistoryError(`cannot roll back ${numTurns} turns: thread ${id} has ${before.turns.length}`);
    }
    await this.appendMarker(id, { type: 'rollback', ts: Date.now(), numTurns });
    return this.history(id);
  }

  async revert(id: string, beforeTurnId: string): Promise<History> {
    const before = await this.history(id);
    if (!before.turns.some((t) => t.id === beforeTurnId)) {
      throw new HistoryError(`turn ${beforeTurnId} is not in the history of thread ${id}`);
    }
    await this.appendMarker(id, { type: 'revert', ts: Date.now(), beforeTurnId });
    return this.history(id);
  }

  /** Copies a thread's history (optionally up to and including one turn) into a new thread. */
  async fork(id: string, thread: NewThread, lastTurnId?: string): Promise<ThreadSummary> {
    const source = await this.history(id);
    let turns = source.turns;
    if (lastTurnId !== undefined) {
      const end = turns.findIndex((t) => t.id === lastTurnId);
      if (end < 0) throw new HistoryError(`turn ${lastTurnId} is not in the history of thread ${id}`);
      turns = turns.slice(0, end + 1);
    }
    const now = Date.now();
    const copied: RolloutRecord[] = turns.flatMap((turn): RolloutRecord[] => [
      { type: 'turn_started', ts: (turn.startedAt ?? now / 1000) * 1000, turnId: turn.id },
      ...turn.items.map((item): RolloutRecord => ({ type: 'item', ts: now, turnId: turn.id, item })),
      ...(turn.status === 'inProgress'
        ? []
        : [
            {
              type: 'turn_completed',
              ts: now,
              turnId: turn.id,
              status: turn.status,
              error: turn.error,
            } as const,
          ]),
    ]);
    return this.create({ ...thread, forkedFromId: id }, copied);
  }

  async archive(id: string): Promise<ThreadSummary> {
    const summary = this.requirePersisted(id);
    if (summary.archived) return summary;
    return this.move(summary, join(ARCHIVED, basename(summary.path)), true);
  }

  async unarchive(id: string): Promise<ThreadSummary> {
    const summary = this.requirePersisted(id);
    if (!summary.archived) return summary;
    const file = basename(summary.path);
    const day = dayDirOfFileName(file) ?? dayDir(summary.createdAt * 1000);
    return this.move(summary, join(SESSIONS, day, file), false);
  }

  async close(): Promise<void> {
    await this.writer.flush();
    await this.index.close();
  }

  private requirePersisted(id: string): ThreadSummary {
    if (this.ephemeral.has(id))
      throw new HistoryError(`thread ${id} is ephemeral: it is not stored, so it cannot be archived`);
    return this.require(id);
  }

  private async move(summary: ThreadSummary, path: string, archived: boolean): Promise<ThreadSummary> {
    const from = join(this.home, summary.path);
    const to = join(this.home, path);
    await this.writer.flush(from);
    await fs.mkdir(dirname(to), { recursive: true, mode: 0o700 });
    await fs.rename(from, to);
    const moved = { ...summary, path, archived };
    await this.index.put(moved);
    await this.index.folderChanged(dirname(from));
    await this.index.folderChanged(dirname(to));
    return moved;
  }

  private async appendMarker(id: string, record: RolloutRecord): Promise<void> {
    const summary = await this.append(id, [record]);
    const preview = previewOf((await this.history(id)).firstUserText);
    if (preview === summary.preview) return;
    const ephemeral = this.ephemeral.get(id);
    if (ephemeral) ephemeral.summary = { ...summary, preview };
    else await this.index.put({ ...summary, preview });
  }

  private async records(id: string): Promise<RolloutRecord[]> {
    const ephemeral = this.ephemeral.get(id);
    if (ephemeral) return ephemeral.records;
    const summary = this.require(id);
    await this.writer.flush(join(this.home, summary.path));
    return readRollout(join(this.home, summary.path), this.log);
  }
}
