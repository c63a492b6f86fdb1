// The listing index: every thread's summary in memory, persisted as a snapshot plus a journal of
// changes so opening it costs one JSON.parse, not a scan of every rollout. It is checked against
// the rollout folders' modification times when opened: a folder that changed behind our back
// (a crash between writes, a file copied in) is rescanned, so a stale index never hides a thread.
import { promises as fs } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Logger } from '../log';
import type { ThreadSortKey } from '../protocol/enums';
import { sortDescending } from './listing';
import { foldHistory } from './records';
import { ARCHIVED, AppendQueue, SESSIONS, idFromFileName, readRollout } from './rolloutFiles';
import { summarize, type ThreadSummary } from './summary';

const VERSION = 2;
const SNAPSHOT = 'thread-index.json';
const JOURNAL = 'thread-index.journal';
const COMPACT_AFTER = 2000;
const RESCAN_BATCH = 32;

/** Summaries are stored as rows of these columns: no repeated keys to write, read and collect. */
const COLUMNS = [
  'id',
  'createdAt',
  'updatedAt',
  'cwd',
  'modelProvider',
  'model',
  'source',
  'cliVersion',
  'forkedFromId',
  'gitInfo',
  'name',
  'preview',
  'archived',
  'path',
] as const satisfies readonly (keyof ThreadSummary)[];
const SHARED = new Set<string>(['cwd', 'modelProvider', 'model', 'source', 'cliVersion']);

interface Snapshot {
  version: number;
  folders: Record<string, number>;
  columns: string[];
  rows: unknown[][];
}

/** Builds summaries from rows, sharing one copy of values many threads repeat (cwd, model, …). */
function fromRows(columns: string[], rows: unknown[][]): ThreadSummary[] {
  const pool = new Map<string, string>();
  const share = (value: unknown) => {
    if (typeof value !== 'string') return value;
    const known = pool.get(value);
    if (known !== undefined) return known;
    pool.set(value, value);
    return value;
  };
  return rows.map((row) => {
    const summary: Record<string, unknown> = {};
    columns.forEach((column, i) => (summary[column] = SHARED.has(column) ? share(row[i]) : row[i]));
    return summary as unknown as ThreadSummary;
  });
}

type JournalEntry =
  | { op: 'put'; thread: ThreadSummary }
  | { op: 'del'; id: string }
  | { op: 'folder'; folder: string; mtimeMs: number };

export class ThreadIndex {
  private readonly threads = new Map<string, ThreadSummary>();
  private folders: Record<string, number> = {};
  private readonly sorted = new Map<ThreadSortKey, ThreadSummary[]>();
  private readonly journal = new AppendQueue();
  private journalLines = 0;

  private constructor(
    private readonly home: string,
    private readonly log: Logger,
  ) {}

  static async open(home: string, log: Logger): Promise<ThreadIndex> {
    const index = new ThreadIndex(home, log);
    const loaded = await index.load();
    const changed = await index.reconcile();
    if (!loaded || changed) await index.compact();
    return index;
  }

  get(id: string): ThreadSummary | undefined {
    return this.threads.get(id);
  }

  get size(): number {
    return this.threads.size;
  }

  /** All summaries, newest first by the key (cached until the next change). */
  sortedBy(sortKey: ThreadSortKey): ThreadSummary[] {
    let list = this.sorted.get(sortKey);
    if (!list) {
      list = sortDescending(this.threads.values(), sortKey);
      this.sorted.set(sortKey, list);
    }
    return list;
  }

  async put(thread: ThreadSummary): Promise<void> {
    this.apply({ op: 'put', thread });
    await this.record([{ op: 'put', thread }]);
  }

  async delete(id: string): Promise<void> {
    this.apply({ op: 'del', id });
    await this.record([{ op: 'del', id }]);
  }

  /** Records a folder's new modification time after we created or moved a file in it. */
  async folderChanged(absoluteFolder: string): Promise<void> {
    const folder = relative(this.home, absoluteFolder);
    const { mtimeMs } = await fs.stat(absoluteFolder);
    this.apply({ op: 'folder', folder, mtimeMs });
    await this.record([{ op: 'folder', folder, mtimeMs }]);
  }

  async close(): Promise<void> {
    await this.journal.flush();
    await this.compact();
  }

  private apply(entry: JournalEntry): void {
    if (entry.op === 'put') this.threads.set(entry.thread.id, entry.thread);
    else if (entry.op === 'del') this.threads.delete(entry.id);
    else this.folders[entry.folder] = entry.mtimeMs;
    if (entry.op !== 'folder') this.sorted.clear();
  }

  private async record(entries: JournalEntry[]): Promise<void> {
    this.journalLines += entries.length;
    await this.journal.append(join(this.home, JOURNAL), entries);
    if (this.journalLines > COMPACT_AFTER) await this.compact();
  }

  /** Reads snapshot and journal; false when there was no usable snapshot. */
  private async load(): Promise<boolean> {
    let snapshot: Snapshot;
    try {
      snapshot = JSON.parse(await fs.readFile(join(this.home, SNAPSHOT), 'utf8')) as Snapshot;
      if (snapshot.version !== VERSION || !Array.isArray(snapshot.rows)) throw new Error('unknown format');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.log.warn(
          `thread index unreadable, rebuilding it from the rollouts: ${(error as Error).message}`,
        );
      }
      return false;
    }
    for (const thread of fromRows(snapshot.columns, snapshot.rows)) this.threads.set(thread.id, thread);
    this.folders = snapshot.folders ?? {};
    const journal = await fs.readFile(join(this.home, JOURNAL), 'utf8').catch(() => '');
    for (const line of journal.split('\n')) {
      if (!line) continue;
      try {
        this.apply(JSON.parse(line) as JournalEntry);
        this.journalLines++;
      } catch {
        this.log.warn('skipping an unreadable line of the thread index journal');
      }
    }
    return true;
  }

  /** Rescans every rollout folder whose modification time is not the one we recorded. */
  private async reconcile(): Promise<boolean> {
    const current = await listFolders(this.home);
    let changed = false;
    for (const [folder, mtimeMs] of current) {
      if (this.folders[folder] === mtimeMs) continue;
      await this.rescan(folder);
      this.folders[folder] = mtimeMs;
      changed = true;
    }
    for (const folder of Object.keys(this.folders)) {
      if (current.has(folder)) continue;
      for (const thread of [...this.threads.values()]) {
        if (dirname(thread.path) === folder) this.apply({ op: 'del', id: thread.id });
      }
      delete this.folders[folder];
      changed = true;
    }
    return changed;
  }

  private async rescan(folder: string): Promise<void> {
    const absolute = join(this.home, folder);
    const files = new Set((await fs.readdir(absolute).catch(() => [] as string[])).filter(idFromFileName));
    for (const thread of [...this.threads.values()]) {
      if (dirname(thread.path) === folder && !files.has(thread.path.slice(folder.length + 1))) {
        this.apply({ op: 'del', id: thread.id });
      }
    }
    const unknown = [...files].filter(
      (file) => this.threads.get(idFromFileName(file)!)?.path !== join(folder, file),
    );
    // A few reads at a time: a rebuild of thousands of rollouts is bound by file reads, not CPU.
    for (let i = 0; i < unknown.length; i += RESCAN_BATCH) {
      const batch = unknown
        .slice(i, i + RESCAN_BATCH)
        .map((file) => summarizeFile(this.home, join(folder, file), this.log));
      for (const summary of await Promise.all(batch)) if (summary) this.apply({ op: 'put', thread: summary });
    }
  }

  private async compact(): Promise<void> {
    const rows = [...this.threads.values()].map((thread) => COLUMNS.map((column) => thread[column]));
    const snapshot: Snapshot = {
      version: VERSION,
      folders: this.folders,
      columns: [...COLUMNS],
      rows,
    };
    await fs.mkdir(this.home, { recursive: true, mode: 0o700 });
    const temp = join(this.home, `${SNAPSHOT}.${process.pid}.tmp`);
    await fs.writeFile(temp, JSON.stringify(snapshot), { mode: 0o600 });
    await fs.rename(temp, join(this.home, SNAPSHOT));
    await fs.rm(join(this.home, JOURNAL), { force: true });
    this.journalLines = 0;
  }
}

/** Reads and folds one rollout into a summary; undefined (and a log line) when it is unusable. */
export async function summarizeFile(
  home: string,
  path: string,
  log: Logger,
): Promise<ThreadSummary | undefined> {
  try {
    const records = await readRollout(join(home, path), log);
    const first = records[0];
    if (first?.type !== 'session_meta') {
      log.warn(`ignoring ${path}: its first line does not describe a thread`);
      return undefined;
    }
    return summarize(foldHistory(first.meta, records.slice(1)), path, path.startsWith(ARCHIVED));
  } catch (error) {
    log.warn(`ignoring ${path}: ${(error as Error).message}`);
    return undefined;
  }
}

/** Every folder that holds rollouts, with its modification time. */
async function listFolders(home: string): Promise<Map<string, number>> {
  const folders = new Map<string, number>();
  const stat = async (folder: string) => {
    const info = await fs.stat(join(home, folder)).catch(() => undefined);
    if (info?.isDirectory()) folders.set(folder, info.mtimeMs);
  };
  const subfolders = async (folder: string) =>
    (await fs.readdir(join(home, folder), { withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isDirectory() && /^\d+$/.test(entry.name))
      .map((entry) => join(folder, entry.name));
  await stat(ARCHIVED);
  for (const year of await subfolders(SESSIONS)) {
    for (const month of await subfolders(year)) {
      await Promise.all((await subfolders(month)).map(stat));
    }
  }
  return folders;
}
