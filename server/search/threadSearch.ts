// Full-text search over every thread, for thread/list's searchTerm. The index lives in memory only
// while it is used: it is loaded (from $THREADLINE_HOME/search-index, brought up to date with
// the threads changed since, or rebuilt from the rollouts when missing) on the first search, kept
// up to date as turns complete, saved and dropped after a minute without searches, so an idle
// server holds none of it.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { collectNow } from '../idleCollection';
import type { Logger } from '../log';
import type { ThreadStore } from '../threads/threadStore';
import type { ThreadSummary } from '../threads/summary';
import { writeFileAtomic } from '../tools/applyPatch/atomicFile';
import { optimized } from '../optimizingCompiler';
import type { SearchIndex } from './searchIndex';
import { bestMatch, hasPhrase, turnTexts, words, type TurnText } from './threadText';

export const INDEX_FILE = 'search-index';
/** Where versions before FlexSearch saved theirs: removed when the new one is saved. */
const OLD_INDEX_FILE = 'search-index.json';
const IDLE_MS = 60_000;
/** How many ranked threads a search considers; pages are cut from these. */
export const MAX_HITS = 1000;
/** How many of the best are read to put exact phrases first. */
const PHRASE_CANDIDATES = 50;
/** Threads whose text is kept between queries while the index is in memory. */
const CACHED_TEXTS = 200;

export class ThreadSearch {
  private index: Promise<SearchIndex> | null = null;
  private dirty = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly texts = new Map<string, { updatedAt: number | undefined; texts: TurnText[] }>();
  /** Threads being indexed again: a search waits for them, so a finished turn is always found. */
  private updates: Promise<void> = Promise.resolve();

  constructor(
    private readonly home: string,
    private readonly log: Logger,
    private readonly store: () => Promise<ThreadStore>,
  ) {}

  /**
   * Thread ids matching every word of `term`, best first; among the best candidates, those that
   * hold the words as the exact phrase come first.
   */
  async ranked(term: string): Promise<string[]> {
    const index = await this.open();
    await this.updates;
    const ids = optimized(() => index.search(term, MAX_HITS));
    if (words(term).length < 2) return ids;
    const head = ids.slice(0, PHRASE_CANDIDATES);
    const phrase = await Promise.all(
      head.map(async (id) => (await this.textsOf(id)).some((turn) => hasPhrase(turn.text, term))),
    );
    return [
      ...head.filter((_, i) => phrase[i]),
      ...head.filter((_, i) => !phrase[i]),
      ...ids.slice(head.length),
    ];
  }

  /** The turn of the thread that matches best, with a line of text around the match. */
  async match(threadId: string, term: string): Promise<{ turnId: string; snippet: string } | null> {
    return bestMatch(await this.textsOf(threadId), term);
  }

  /**
   * The turns' text of a thread, from a small cache: as the user types, each key asks again for
   * mostly the same threads, and reading their rollouts is most of a query's time.
   */
  private async textsOf(threadId: string): Promise<TurnText[]> {
    const store = await this.store();
    const updatedAt = store.get(threadId)?.updatedAt;
    const cached = this.texts.get(threadId);
    if (cached && cached.updatedAt === updatedAt) {
      // Most recently used last, so the oldest entry is the first to go.
      this.texts.delete(threadId);
      this.texts.set(threadId, cached);
      return cached.texts;
    }
    const texts = turnTexts((await store.history(threadId).catch(() => ({ turns: [] }))).turns);
    this.texts.set(threadId, { updatedAt, texts });
    if (this.texts.size > CACHED_TEXTS) this.texts.delete(this.texts.keys().next().value!);
    return texts;
  }

  /** A turn completed or the thread changed: indexed again at once when the index is in memory. */
  threadChanged(threadId: string): Promise<void> {
    // Its cached text is stale even when updatedAt (whole seconds) did not move.
    this.texts.delete(threadId);
    const loading = this.index;
    if (!loading) return Promise.resolve();
    this.updates = this.updates.then(async () => {
      const index = await loading;
      const store = await this.store();
      const summary = store.get(threadId);
      if (summary) await this.read(index, store, summary);
    });
    return this.updates;
  }

  threadRemoved(threadId: string): void {
    void this.index?.then((index) => {
      index.remove(threadId);
      this.dirty = true;
    });
  }

  /** Saves what changed; call at shutdown. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    if (this.index) await this.save(await this.index);
  }

  private open(): Promise<SearchIndex> {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.unload(), IDLE_MS);
    this.idleTimer.unref();
    this.index ??= this.load();
    this.index.catch(() => (this.index = null));
    return this.index;
  }

  private async load(): Promise<SearchIndex> {
    const { SearchIndex } = await import('./searchIndex');
    const started = Date.now();
    const text = await fs.readFile(join(this.home, INDEX_FILE), 'utf8').catch(() => null);
    const index = (text !== null && optimized(() => SearchIndex.parse(text))) || SearchIndex.empty();
    const store = await this.store();
    const seen = new Set<string>();
    let read = 0;
    for (const summary of allThreads(store)) {
      seen.add(summary.id);
      if (index.indexedAt.get(summary.id) === summary.updatedAt) continue;
      await this.read(index, store, summary);
      read++;
    }
    for (const id of [...index.indexedAt.keys()]) if (!seen.has(id)) index.remove(id);
    this.log.info(
      `search index ready in ${Date.now() - started} ms: ${seen.size} threads, ${read} read from their rollouts`,
    );
    return index;
  }

  private async read(index: SearchIndex, store: ThreadStore, summary: ThreadSummary): Promise<void> {
    try {
      const { turns } = await store.history(summary.id);
      optimized(() => {
        const text = turnTexts(turns)
          .map((turn) => turn.text)
          .join('\n');
        index.put({ id: summary.id, name: summary.name ?? '', text }, summary.updatedAt);
      });
      this.dirty = true;
    } catch (error) {
      this.log.warn(`search: cannot read thread ${summary.id}: ${(error as Error).message}`);
    }
  }

  private async unload(): Promise<void> {
    const loading = this.index;
    if (!loading) return;
    this.index = null;
    this.texts.clear();
    await this.save(await loading).catch((error: Error) =>
      this.log.warn(`search: cannot save the index: ${error.message}`),
    );
    // The index is the largest thing the server holds; give its memory back now.
    setImmediate(collectNow);
  }

  private async save(index: SearchIndex): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    await fs.mkdir(this.home, { recursive: true, mode: 0o700 });
    const serialized = optimized(() => index.serialize());
    await writeFileAtomic(join(this.home, INDEX_FILE), Buffer.from(serialized), 0o600);
    await fs.rm(join(this.home, OLD_INDEX_FILE), { force: true });
  }
}

/** Every stored thread, archived ones too, whatever its source. */
function* allThreads(store: ThreadStore): Generator<ThreadSummary> {
  for (const archived of [false, true]) {
    let cursor: string | undefined;
    do {
      const page = store.list({ archived, limit: 200, cursor });
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
}
