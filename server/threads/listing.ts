// Paging through thread summaries: sort, filter, and opaque cursors that stay stable while new
// threads are created (a cursor names the last row's sort value and id, never an offset).
import type { SortDirection, ThreadSortKey, ThreadSourceKind } from '../protocol/enums';
import type { ThreadSummary } from './summary';

export interface ListQuery {
  cursor?: string;
  limit: number;
  sortKey: ThreadSortKey;
  sortDirection: SortDirection;
  modelProviders?: readonly string[];
  sourceKinds?: readonly ThreadSourceKind[];
  archived: boolean;
  cwd?: readonly string[];
  searchTerm?: string;
}

export interface ListPage {
  data: ThreadSummary[];
  nextCursor: string | null;
}

export class InvalidCursorError extends Error {
  constructor(cursor: string) {
    super(`Invalid params: cursor: '${cursor.slice(0, 60)}' is not a cursor this server issued`);
  }
}

type Position = [number, string];

const keyOf = (summary: ThreadSummary, sortKey: ThreadSortKey) =>
  sortKey === 'created_at' ? summary.createdAt : summary.updatedAt;

/** Newest first, ties broken by id (ids are time-ordered, so this is a total order). */
function compareDesc(a: Position, b: Position): number {
  return b[0] - a[0] || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0);
}

export function sortDescending(summaries: Iterable<ThreadSummary>, sortKey: ThreadSortKey): ThreadSummary[] {
  return [...summaries].sort((a, b) => compareDesc([keyOf(a, sortKey), a.id], [keyOf(b, sortKey), b.id]));
}

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return [value[0], value[1]];
    }
  } catch {
    // fall through to the error below
  }
  throw new InvalidCursorError(cursor);
}

export function sourceKindOf(summary: ThreadSummary): ThreadSourceKind {
  return typeof summary.source === 'string' ? summary.source : 'unknown';
}

function matcher(query: ListQuery): (summary: ThreadSummary) => boolean {
  const providers = query.modelProviders?.length ? new Set(query.modelProviders) : undefined;
  const kinds = query.sourceKinds?.length ? new Set(query.sourceKinds) : undefined;
  const cwds = query.cwd?.length ? new Set(query.cwd) : undefined;
  const term = query.searchTerm?.trim().toLowerCase() || undefined;
  return (s) =>
    s.archived === query.archived &&
    (!providers || providers.has(s.modelProvider)) &&
    (!kinds || kinds.has(sourceKindOf(s))) &&
    (!cwds || cwds.has(s.cwd)) &&
    (!term || s.preview.toLowerCase().includes(term) || (s.name?.toLowerCase().includes(term) ?? false));
}

/** One page from summaries already sorted newest first by the query's sort key. */
export function listPage(sortedDesc: readonly ThreadSummary[], query: ListQuery): ListPage {
  const ascending = query.sortDirection === 'asc';
  const position = (s: ThreadSummary): Position => [keyOf(s, query.sortKey), s.id];
  const step = ascending ? -1 : 1;
  let index = ascending ? sortedDesc.length - 1 : 0;
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor);
    index = firstAfter(sortedDesc, after, position, ascending);
  }
  const matches = matcher(query);
  const data: ThreadSummary[] = [];
  let more = false;
  for (; index >= 0 && index < sortedDesc.length; index += step) {
    const summary = sortedDesc[index]!;
    if (!matches(summary)) continue;
    if (data.length === query.limit) {
      more = true;
      break;
    }
    data.push(summary);
  }
  const last = data[data.length - 1];
  return { data, nextCursor: more && last ? encodeCursor(position(last)) : null };
}

/** Index of the first row strictly past `after` in the direction of travel (binary search). */
function firstAfter(
  sortedDesc: readonly ThreadSummary[],
  after: Position,
  position: (s: ThreadSummary) => Position,
  ascending: boolean,
): number {
  // lo = number of rows that sort at or before `after` in descending order.
  let lo = 0;
  let hi = sortedDesc.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareDesc(position(sortedDesc[mid]!), after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  if (!ascending) return lo;
  // Ascending walks backwards: start just before the rows at or after `after`.
  let start = lo - 1;
  while (start >= 0 && compareDesc(position(sortedDesc[start]!), after) >= 0) start--;
  return start;
}
