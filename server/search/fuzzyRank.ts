// Ranks index entries against a query like an editor's quick-open: a match inside the file name
// beats one spread over the path, contiguous and word-start matches beat scattered ones (fuzzysort's
// scoring), and ties go to the shorter path, then files before folders, then alphabetical order.
import fuzzysort from 'fuzzysort';
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
  // A query with a slash is about folders too, so only the whole path can match it.
  const keys = needle.includes('/') ? ['preparedPath'] : ['preparedName', 'preparedPath'];
  // fuzzysort keeps only the best few with a heap; a margin over `limit` lets the tie-breaks below
  // choose among equal scores without sorting every match of a one-letter query.
  const found = fuzzysort.go(needle, entries, { keys, limit: limit * 4 + 100, threshold: 0 });
  const ranked = found.map((result): RankedMatch => {
    const [first, second] = [result[0], result[1]];
    const byName = keys.length === 2 && first && first.score > 0 && first.score >= (second?.score ?? 0);
    const entry = result.obj;
    const indices = byName
      ? first.indexes.map((i) => i + entry.path.length - entry.name.length)
      : [...(keys.length === 2 ? second : first)!.indexes];
    return { entry, score: Math.round(result.score * 1_000_000), indices: indices.sort((a, b) => a - b) };
  });
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      a.entry.path.length - b.entry.path.length ||
      Number(a.entry.isDirectory) - Number(b.entry.isDirectory) ||
      (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0),
  );
  return ranked.slice(0, limit);
}
