// The full-text index over threads (MiniSearch): one document per thread holding its name and the
// text of its turns. Serializable, so it survives restarts; it knows when each thread was indexed,
// so only threads changed since need reading again. Word positions are not indexed (adjacent pairs
// were, at first: on 10,000 threads they made the index over 1 GiB), so phrases are ranked by
// ThreadSearch on the best candidates.
import MiniSearch, { type Options } from 'minisearch';
import { words } from './threadText';

export interface IndexedThread {
  id: string;
  name: string;
  text: string;
}

const OPTIONS: Options<IndexedThread> = {
  fields: ['name', 'text'],
  storeFields: [],
  tokenize: (text: string) => words(text),
  processTerm: (term: string) => term,
};

/** Bump when what is indexed changes: an index saved by another version is rebuilt. */
const FORMAT = 1;

export class SearchIndex {
  private constructor(
    private readonly index: MiniSearch<IndexedThread>,
    /** When each indexed thread was last read (its updatedAt then). */
    readonly indexedAt: Map<string, number>,
  ) {}

  static empty(): SearchIndex {
    return new SearchIndex(new MiniSearch<IndexedThread>(OPTIONS), new Map());
  }

  /** A saved index, or null when it is from another format or unreadable. */
  static parse(text: string): SearchIndex | null {
    try {
      const saved = JSON.parse(text) as { format: number; indexedAt: [string, number][]; index: unknown };
      if (saved.format !== FORMAT) return null;
      const index = MiniSearch.loadJS<IndexedThread>(saved.index as never, OPTIONS);
      return new SearchIndex(index, new Map(saved.indexedAt));
    } catch {
      return null;
    }
  }

  serialize(): string {
    return JSON.stringify({ format: FORMAT, indexedAt: [...this.indexedAt], index: this.index.toJSON() });
  }

  put(thread: IndexedThread, updatedAt: number): void {
    if (this.index.has(thread.id)) this.index.replace(thread);
    else this.index.add(thread);
    this.indexedAt.set(thread.id, updatedAt);
  }

  remove(id: string): void {
    if (this.index.has(id)) this.index.discard(id);
    this.indexedAt.delete(id);
  }

  /**
   * Thread ids, best first: every word of the query must occur (the last one may be the start of a
   * word, for results as you type); the name weighs more.
   */
  search(query: string, limit: number): string[] {
    const terms = words(query);
    if (terms.length === 0) return [];
    return this.index
      .search(query, {
        combineWith: 'AND',
        // A short start of a word would expand to thousands of terms: prefixes from 3 letters.
        prefix: (term: string, i: number, list: string[]) => i === list.length - 1 && term.length >= 3,
        boost: { name: 3 },
      })
      .slice(0, limit)
      .map((result) => result.id as string);
  }
}
