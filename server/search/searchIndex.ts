// The full-text index over threads (FlexSearch): one entry per thread holding its name and the text
// of its turns, and a small second index of names alone, so a thread whose name matches comes first.
// FlexSearch keeps each term's postings as plain arrays of small integers: on 10,000 threads it holds
// a third of what MiniSearch's per-term maps did. Threads are numbered here (a number per posting is
// far smaller than a thread id in memory and on disk); a thread indexed again gets a new number and
// its old one is dropped from the index when it is saved, since FlexSearch removes an entry by
// walking every term (tens of ms) and that should not happen while the user waits.
import FlexSearch, { type Index } from 'flexsearch';
import { words } from './threadText';

export interface IndexedThread {
  id: string;
  name: string;
  text: string;
}

const newIndex = (): Index =>
  // Whole words only; prefixes are found through the vocabulary (see `variants`), which costs
  // nothing more, where FlexSearch's prefix tokenizers store every prefix of every word.
  new FlexSearch.Index({ tokenize: 'strict', encode: words, resolution: 9 });

/** Bump when what is saved changes: an index saved by another version is rebuilt. */
const FORMAT = 2;
/** A short start of a word would expand to thousands of words: prefixes from 3 letters. */
const MIN_PREFIX = 3;
/** The most frequent words a prefix stands for that a query tries. */
const MAX_VARIANTS = 24;

interface Header {
  format: number;
  indexedAt: [string, number][];
  /** Number → thread id; null for numbers given up and not yet dropped from the index. */
  docs: (string | null)[];
}

export class SearchIndex {
  private readonly numbers = new Map<string, number>();
  /** Numbers given up but still in FlexSearch's index: skipped in results, dropped when saved. */
  private readonly stale: number[] = [];
  /** The vocabulary, sorted, for prefixes; rebuilt after words were added. */
  private sortedTerms: string[] | null = null;

  private constructor(
    private readonly texts: Index,
    private readonly names: Index,
    private readonly docs: (string | null)[],
    /** When each indexed thread was last read (its updatedAt then). */
    readonly indexedAt: Map<string, number>,
  ) {
    docs.forEach((id, n) => id !== null && this.numbers.set(id, n));
  }

  static empty(): SearchIndex {
    return new SearchIndex(newIndex(), newIndex(), [], new Map());
  }

  /**
   * A saved index (a header line, then one line per FlexSearch chunk: which index, its key, its
   * JSON), or null when it is from another format or unreadable.
   */
  static parse(text: string): SearchIndex | null {
    try {
      const lines = text.split('\n');
      const header = JSON.parse(lines[0]!) as Header;
      if (header.format !== FORMAT) return null;
      const texts = newIndex();
      const names = newIndex();
      for (const line of lines.slice(1)) {
        const [which, key, data] = splitChunk(line);
        (which === 'names' ? names : texts).import(key, data);
      }
      return new SearchIndex(texts, names, header.docs, new Map(header.indexedAt));
    } catch {
      return null;
    }
  }

  /** The saved form; numbers given up are dropped from the index first. */
  serialize(): string {
    this.dropGivenUp();
    const header: Header = { format: FORMAT, indexedAt: [...this.indexedAt], docs: this.docs };
    const lines = [JSON.stringify(header)];
    this.texts.export((key, data) => void lines.push(`texts\t${key}\t${data}`));
    this.names.export((key, data) => void lines.push(`names\t${key}\t${data}`));
    return lines.join('\n');
  }

  put(thread: IndexedThread, updatedAt: number): void {
    this.giveUp(thread.id);
    const n = this.docs.push(thread.id) - 1;
    this.numbers.set(thread.id, n);
    this.texts.add(n, `${thread.name}\n${thread.text}`);
    if (thread.name) this.names.add(n, thread.name);
    this.indexedAt.set(thread.id, updatedAt);
    this.sortedTerms = null;
  }

  remove(id: string): void {
    this.giveUp(id);
    this.indexedAt.delete(id);
  }

  /**
   * Thread ids, best first: every word of the query must occur (the last one may be the start of a
   * word, for results as you type); threads whose name holds them all come first.
   */
  search(query: string, limit: number): string[] {
    const terms = words(query);
    if (terms.length === 0) return [];
    const variants = this.variants(terms);
    const ids = new Set<string>();
    for (const index of [this.names, this.texts]) {
      for (const variant of variants) {
        for (const n of index.search(variant, { limit: limit + this.stale.length })) {
          const id = this.docs[n as number];
          if (id != null) ids.add(id);
        }
      }
    }
    return [...ids].slice(0, limit);
  }

  /**
   * The query as it is, then with its last word completed to the indexed words it starts (the most
   * frequent first).
   */
  private variants(terms: string[]): string[] {
    const exact = terms.join(' ');
    const last = terms[terms.length - 1]!;
    if (last.length < MIN_PREFIX) return [exact];
    const head = terms.slice(0, -1);
    const completions = this.completions(last)
      .filter((term) => term !== last)
      .map((term) => ({ term, count: this.postings(term) }))
      .sort((a, b) => b.count - a.count)
      .slice(0, MAX_VARIANTS)
      .map(({ term }) => [...head, term].join(' '));
    return [exact, ...completions];
  }

  private completions(prefix: string): string[] {
    const sorted = (this.sortedTerms ??= [...this.vocabulary().keys()].sort());
    const found: string[] = [];
    for (let i = firstAtLeast(sorted, prefix); i < sorted.length && sorted[i]!.startsWith(prefix); i++) {
      found.push(sorted[i]!);
    }
    return found;
  }

  private postings(term: string): number {
    return (this.vocabulary().get(term) ?? []).reduce((sum, slot) => sum + (slot?.length ?? 0), 0);
  }

  /**
   * FlexSearch's own term map (term → postings by relevance slot). It has no public way to list its
   * words; reading the map saves keeping a second copy of a vocabulary that can reach 100,000 words.
   */
  private vocabulary(): Map<string, (unknown[] | undefined)[]> {
    return (this.texts as Index & { map: Map<string, (unknown[] | undefined)[]> }).map;
  }

  private giveUp(id: string): void {
    const n = this.numbers.get(id);
    if (n === undefined) return;
    this.docs[n] = null;
    this.numbers.delete(id);
    this.stale.push(n);
  }

  private dropGivenUp(): void {
    for (const n of this.stale.splice(0)) {
      this.texts.remove(n);
      this.names.remove(n);
    }
  }
}

function splitChunk(line: string): [string, string, string] {
  const first = line.indexOf('\t');
  const second = line.indexOf('\t', first + 1);
  if (first < 0 || second < 0) throw new Error('not an index chunk');
  return [line.slice(0, first), line.slice(first + 1, second), line.slice(second + 1)];
}

/** The first position in a sorted list whose entry is not below `value`. */
function firstAtLeast(sorted: string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
