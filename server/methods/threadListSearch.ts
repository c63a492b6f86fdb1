// thread/list with a searchTerm: threads whose text (user and agent messages, command lines, name)
// holds every word of the term, best first, then those whose name or preview merely contains it.
// Relevance has no keyset order, so the pages of a search are cut by offset from one ranking;
// clients that opted into experimentalApi also get each thread's best matching turn and snippet.
import type { Thread } from '../protocol/thread';
import { InvalidCursorError, passesFilters, type ListQuery } from '../threads/listing';
import type { ThreadSummary } from '../threads/summary';
import type { ThreadStore } from '../threads/threadStore';
import type { ThreadSearch } from '../search/threadSearch';

export type SearchFilters = Omit<ListQuery, 'sortKey' | 'sortDirection' | 'searchTerm'>;
export type SearchQuery = SearchFilters & { searchTerm: string };

const PREFIX = 'search:';

export async function searchPage(
  store: ThreadStore,
  search: ThreadSearch,
  query: SearchQuery,
  withMatches: boolean,
  view: (summary: ThreadSummary) => Thread,
): Promise<{ data: Thread[]; nextCursor: string | null }> {
  const offset = query.cursor === undefined ? 0 : decode(query.cursor);
  const ranked = (await search.ranked(query.searchTerm))
    .map((id) => store.get(id))
    .filter((summary): summary is ThreadSummary => !!summary && passesFilters(summary, query));
  const seen = new Set(ranked.map((summary) => summary.id));
  const named = store
    .list({ ...query, cursor: undefined, limit: 200, sortKey: 'updated_at', sortDirection: 'desc' })
    .data.filter((summary) => !seen.has(summary.id));
  const all = [...ranked, ...named];
  const page = all.slice(offset, offset + query.limit);
  const data = await Promise.all(
    page.map(async (summary) => {
      const thread = view(summary);
      if (!withMatches) return thread;
      const match = await search.match(summary.id, query.searchTerm).catch(() => null);
      return {
        ...thread,
        searchMatch: match ?? { turnId: null, snippet: summary.name ?? summary.preview },
      };
    }),
  );
  const next = offset + page.length;
  return { data, nextCursor: next < all.length ? encode(next) : null };
}

const encode = (offset: number) => Buffer.from(`${PREFIX}${offset}`).toString('base64url');

function decode(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const offset = Number(text.slice(PREFIX.length));
  if (!text.startsWith(PREFIX) || !Number.isInteger(offset) || offset < 0) {
    throw new InvalidCursorError(cursor, 'is not a cursor of this search');
  }
  return offset;
}
