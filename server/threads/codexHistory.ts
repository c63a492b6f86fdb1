// The user's Codex history: a second root of rollouts ($CODEX_HOME or ~/.codex), written by the
// reference server and only ever read here. Its threads are listed beside ours and read as ours;
// continuing one happens in Threadline's home, as a fork. Its index lives in Threadline's home
// (codex-index.json), so nothing is written into the Codex home; files there that are not rollouts
// we can read are remembered by size and mtime and not read again until they change.
//
// Codex keeps names apart from rollouts, in session_index.jsonl ({id, thread_name} lines, the
// last one for an id wins): they are read at open and whenever the file changes.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { CodexTranslator, historyBase, parseCodexLine, type CodexLine } from './codexRollout';
import { isObject, str } from './codexItems';
import type { ListPage, ListQuery } from './listing';
import { foldHistory, type RolloutRecord } from './records';
import { ARCHIVED, SESSIONS } from './rolloutFiles';
import { readLines } from './rolloutReader';
import { fileStamp, type RolloutSummarizer, type Scanned } from './rolloutScan';
import { previewOf, type ThreadSummary } from './summary';
import { ThreadIndex } from './threadIndex';

export const CODEX_SNAPSHOT = 'codex-index.json';
export const CODEX_JOURNAL = 'codex-index.journal';
const NAMES = 'session_index.jsonl';
/** A listing's summary needs the first lines only: the description, a turn's model, a user message. */
const HEAD_BYTES = 64 * 1024;
const MAX_FORK_DEPTH = 8;
const REFRESH_MS = 2000;
const PARALLEL_READS = 16;

/** The root Codex uses: $CODEX_HOME, else ~/.codex. */
export function defaultCodexHome(env: NodeJS.ProcessEnv, homeDir: string): string {
  return env.CODEX_HOME || join(homeDir, '.codex');
}

export class CodexHistory {
  private names = new Map<string, string>();
  private namesStamp: string | undefined;
  private lastRefresh = Date.now();
  private refreshing: Promise<void> | undefined;

  private constructor(
    readonly root: string,
    private readonly log: Logger,
    private index: ThreadIndex | undefined = undefined,
  ) {}

  /** Opens the history under `root`, its index kept in `indexDir`; undefined when there is no such folder. */
  static async open(root: string, indexDir: string, log: Logger): Promise<CodexHistory | undefined> {
    const info = await fs.stat(root).catch(() => undefined);
    if (!info?.isDirectory()) return undefined;
    const history = new CodexHistory(root, log);
    await history.readNames();
    history.index = await ThreadIndex.open(root, log, {
      dir: indexDir,
      snapshot: CODEX_SNAPSHOT,
      journal: CODEX_JOURNAL,
      summarizer: history.summarizer(),
    });
    await history.applyNames();
    log.info(`reading Codex history in ${root}: ${history.index.size} threads`);
    return history;
  }

  get size(): number {
    return this.index?.size ?? 0;
  }

  get(id: string): ThreadSummary | undefined {
    const summary = this.index?.get(id);
    return summary && this.absolute(summary);
  }

  page(query: ListQuery): ListPage {
    if (!this.index) return { data: [], nextCursor: null };
    const page = this.index.page(query);
    return { data: page.data.map((summary) => this.absolute(summary)), nextCursor: page.nextCursor };
  }

  /** The thread's records in our format, a fork's shared lines read from its parent. */
  async records(id: string): Promise<RolloutRecord[]> {
    const path = this.index?.get(id)?.path;
    if (path === undefined) return [];
    const { inherited, own } = await this.lines(path, 0);
    const translator = new CodexTranslator();
    // The fork's own description first, then the history it shares, then its own lines.
    for (const line of [...own.slice(0, 1), ...inherited, ...own.slice(1)]) if (!translator.take(line)) break;
    return translator.result()?.records ?? [];
  }

  /** Looks for new or changed rollouts and names, at most every couple of seconds. */
  refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    if (Date.now() - this.lastRefresh < REFRESH_MS || !this.index) return Promise.resolve();
    const index = this.index;
    this.refreshing = (async () => {
      await index.refresh();
      await this.readNames();
      await this.applyNames();
    })()
      .catch((error: Error) => this.log.warn(`cannot refresh the Codex history: ${error.message}`))
      .finally(() => {
        this.lastRefresh = Date.now();
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  async close(): Promise<void> {
    await this.refreshing;
    await this.index?.close();
  }

  private absolute(summary: ThreadSummary): ThreadSummary {
    return { ...summary, path: join(this.root, summary.path) };
  }

  private summarizer(): RolloutSummarizer {
    // The root is always ours: summaries are read relative to it.
    const one = (_root: string, path: string, log: Logger) => this.summarize(path, log);
    return {
      one,
      many: async (root, paths, log, each) => {
        const failed: string[] = [];
        for (let start = 0; start < paths.length; start += PARALLEL_READS) {
          const batch = paths.slice(start, start + PARALLEL_READS);
          const results = await Promise.all(batch.map((path) => one(root, path, log)));
          results.forEach((scanned, i) => (scanned ? each(scanned) : failed.push(batch[i]!)));
        }
        return failed;
      },
    };
  }

  /** A listing's summary from the head of the file (and, for a fork without a prompt of its own, its parent's). */
  private async summarize(path: string, log: Logger, depth = 0): Promise<Scanned | undefined> {
    const translator = new CodexTranslator();
    let reading;
    try {
      reading = await readLines(join(this.root, path), log, parseCodexLine, {
        chunkBytes: HEAD_BYTES,
        stop: (line) =>
          !translator.take(line) || (translator.sawUserMessage && translator.meta?.model != null),
      });
    } catch (error) {
      log.warn(`ignoring Codex rollout ${path}: ${(error as Error).message}`);
      return undefined;
    }
    const result = translator.result();
    if (!result) {
      log.warn(`ignoring ${join(this.root, path)}: its first line does not describe a Codex thread`);
      return undefined;
    }
    const history = foldHistory(result.meta, result.records.slice(1));
    let preview = previewOf(history.firstUserText);
    let model = result.meta.model;
    if ((!preview || !model) && result.historyBase && depth < MAX_FORK_DEPTH) {
      // A fork without turns of its own yet: its prompt and model are in the history it shares.
      const path = await this.find(result.historyBase.threadId);
      const parent = path === undefined ? undefined : (await this.summarize(path, log, depth + 1))?.summary;
      preview ||= parent?.preview ?? '';
      model ??= parent?.model ?? null;
    }
    const summary: ThreadSummary = {
      ...result.meta,
      model,
      updatedAt: Math.max(history.updatedAt, Math.floor(reading.mtimeMs / 1000)),
      name: this.names.get(result.meta.id) ?? history.name,
      preview,
      archived: path.startsWith(ARCHIVED),
      path,
    };
    return { summary, bytes: reading.size };
  }

  /**
   * The lines of a rollout: its own, and those it shares with its parent (a fork written by
   * 0.169 names them instead of copying them).
   */
  private async lines(path: string, depth: number): Promise<{ inherited: CodexLine[]; own: CodexLine[] }> {
    const own = (await readLines(join(this.root, path), this.log, parseCodexLine)).records;
    const first = own[0];
    const base = first?.type === 'session_meta' ? historyBase(first.payload) : null;
    if (!base) return { inherited: [], own };
    const parent = depth < MAX_FORK_DEPTH ? await this.find(base.threadId) : undefined;
    if (!parent) {
      this.log.warn(`the Codex thread in ${path} was forked from ${base.threadId}, which is not found`);
      return { inherited: [], own };
    }
    const shared = await this.lines(parent, depth + 1);
    const before = (line: CodexLine) => line.type !== 'session_meta' && (line.ordinal ?? 0) < base.endOrdinal;
    return { inherited: [...shared.inherited, ...shared.own.filter(before)], own };
  }

  /** A thread's rollout path (relative to the root): from the index, else by its file name. */
  private async find(id: string): Promise<string | undefined> {
    const indexed = this.index?.get(id)?.path;
    if (indexed) return indexed;
    for (const folder of candidateFolders(id)) {
      const files = await fs.readdir(join(this.root, folder)).catch(() => [] as string[]);
      const file = files.find((name) => name.startsWith('rollout-') && name.endsWith(`-${id}.jsonl`));
      if (file) return join(folder, file);
    }
    return undefined;
  }

  private async readNames(): Promise<void> {
    const stamp = await fileStamp(this.root, NAMES);
    if (stamp === this.namesStamp) return;
    this.namesStamp = stamp;
    const text = await fs.readFile(join(this.root, NAMES), 'utf8').catch(() => '');
    const names = new Map<string, string>();
    for (const line of text.split('\n')) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      const id = isObject(value) ? str(value.id) : undefined;
      const name = isObject(value) ? str(value.thread_name)?.trim() : undefined;
      if (!id) continue;
      if (name) names.set(id, name);
      else names.delete(id);
    }
    this.names = names;
  }

  /** Gives indexed threads the names session_index.jsonl holds for them. */
  private async applyNames(): Promise<void> {
    const index = this.index;
    if (!index) return;
    for (const [id, name] of this.names) {
      const summary = index.get(id);
      if (summary && summary.name !== name) await index.put({ ...summary, name }, index.bytesOf(id));
    }
  }
}

/**
 * Where a thread's rollout can be, from the time in its UUIDv7 id: that day's folder and its
 * neighbours (Codex names folders in local time), and archived_sessions.
 */
function candidateFolders(id: string): string[] {
  const ms = /^[0-9a-f]{8}-[0-9a-f]{4}-7/.test(id) ? parseInt(id.replace(/-/g, '').slice(0, 12), 16) : NaN;
  const folders = new Set<string>();
  if (Number.isFinite(ms)) {
    for (const offset of [0, -86_400_000, 86_400_000]) {
      const day = new Date(ms + offset);
      const local = [day.getFullYear(), day.getMonth() + 1, day.getDate()];
      const utc = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
      for (const [y, m, d] of [local, utc]) {
        folders.add(join(SESSIONS, String(y), String(m).padStart(2, '0'), String(d).padStart(2, '0')));
      }
    }
  }
  folders.add(ARCHIVED);
  return [...folders];
}

/** The Codex history, or undefined (and a log line) when it cannot be read: our own threads still open. */
export async function openCodexHistory(
  root: string,
  home: string,
  log: Logger,
): Promise<CodexHistory | undefined> {
  try {
    return await CodexHistory.open(root, home, log);
  } catch (error) {
    log.warn(`cannot read the Codex history in ${root}: ${(error as Error).message}`);
    return undefined;
  }
}
