// One FileIndex per root folder, shared by every search and session of every connection, and
// let go after a while unused so an idle server holds no watchers.
import { FileIndex } from './fileIndex';
import { rankEntries } from './fuzzyRank';
import type { Static } from '@sinclair/typebox';
import type { FuzzyFileSearchResult } from '../protocol/fsMethods';

export type SearchResult = Static<typeof FuzzyFileSearchResult>;

const idleMs = 5 * 60_000;

export class FileIndexes {
  private readonly indexes = new Map<string, { index: FileIndex; usedAt: number; holders: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  /** The index of each root, built in the background if new. `hold` keeps it until `release`. */
  use(roots: readonly string[], hold = false): FileIndex[] {
    return roots.map((root) => {
      let slot = this.indexes.get(root);
      if (!slot) {
        slot = { index: new FileIndex(root), usedAt: 0, holders: 0 };
        this.indexes.set(root, slot);
      }
      slot.usedAt = Date.now();
      if (hold) slot.holders++;
      return slot.index;
    });
  }

  release(roots: readonly string[]): void {
    for (const root of roots) {
      const slot = this.indexes.get(root);
      if (slot) {
        slot.holders = Math.max(0, slot.holders - 1);
        slot.usedAt = Date.now();
      }
    }
  }

  dispose(): void {
    clearInterval(this.sweeper);
    for (const { index } of this.indexes.values()) index.dispose();
    this.indexes.clear();
  }

  private sweep(): void {
    for (const [root, slot] of this.indexes) {
      if (slot.holders === 0 && Date.now() - slot.usedAt > idleMs) {
        slot.index.dispose();
        this.indexes.delete(root);
      }
    }
  }
}

/** The best matches across several roots' indexes, in the protocol's shape. */
export function searchIndexes(indexes: readonly FileIndex[], query: string, limit: number): SearchResult[] {
  const matches = indexes.flatMap((index) =>
    rankEntries(query, index.list(), limit).map((match) => ({ root: index.root, match })),
  );
  matches.sort((a, b) => b.match.score - a.match.score);
  return matches.slice(0, limit).map(({ root, match }) => ({
    root,
    path: match.entry.path,
    file_name: match.entry.name,
    match_type: match.entry.isDirectory ? ('directory' as const) : ('file' as const),
    score: match.score,
    indices: match.indices,
  }));
}
