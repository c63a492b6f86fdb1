// Ranks index entries against a query like an editor's quick-open: a match inside the file name
// beats one spread over the path, contiguous and word-start matches beat scattered ones (fuzzysort's
// scoring), and ties go to the shorter path, then files before folders, then alphabetical order.
import fuzzysort, { type KeyResults } from 'fuzzysort';
import type { IndexedEntry } from './fileIndex';

export interface RankedMatch {
  entry: IndexedEntry;
  /** 0 to 1_000_000, higher is better. */
  score: number;
  /** Offsets into entry.path of the matched characters, ascending. */
  indices: number[];
}

export function rankEntries(query: string, entries: readonly IndexedEntry[], limit: number): RankedMatch[] {
  const needle = query.trim();
  if (!needle) return [];
  // fuzzysort keeps only the best few with a heap; a margin over `limit` lets the tie-breaks below
  // choose among equal scores without sorting every match of a one-letter query.
  const options = { limit: limit * 4 + 100, threshold: 0 };
  // One key at a time: fuzzysort searches one key several times faster than two at once. An entry
  // ranks by the better of its two scores (what fuzzysort would merge them to), the name's on a tie;
  // the best few of each list hold the best few of both.
  const best = new Map<IndexedEntry, RankedMatch>();
  const consider = (results: KeyResults<IndexedEntry>, offsetOf: (entry: IndexedEntry) => number) => {
    for (const result of results) {
      const score = Math.round(result.score * 1_000_000);
      const seen = best.get(result.obj);
      if (seen && seen.score >= score) continue;
      const offset = offsetOf(result.obj);
      const indices = result.indexes.map((i) => i + offset).sort((a, b) => a - b);
      best.set(result.obj, { entry: result.obj, score, indices });
    }
  };
  // A query with a slash is about folders too, so only the whole path can match it.
  if (!needle.includes('/'))
    consider(
      fuzzysort.go(needle, entries, { ...options, key: 'preparedName' }),
      (e) => e.path.length - e.name.length,
    );
  consider(fuzzysort.go(needle, entries, { ...options, key: 'preparedPath' }), () => 0);
  const ranked = [...best.values()];
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      a.entry.path.length - b.entry.path.length ||
      Number(a.entry.isDirectory) - Number(b.entry.isDirectory) ||
      (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0),
  );
  return ranked.slice(0, limit);
}
