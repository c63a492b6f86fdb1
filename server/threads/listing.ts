// Paging through thread summaries with keyset cursors: a cursor names the sort key, and the sort
// value and id of the last row returned, never an offset, so threads created (or deleted) between
// two calls never shift a page: no duplicates, no gaps.
import type { SortDirection, StoredSortKey, ThreadSourceKind } from '../protocol/enums';
import type { SessionSource } from '../protocol/thread';
import type { ThreadSummary } from './summary';

export interface ListQuery {
  /** From a previous page's `nextCursor`; opaque to callers. */
  cursor?: string;
  limit: number;
  sortKey: StoredSortKey;
  sortDirection: SortDirection;
  /** Empty or absent: every provider. */
  modelProviders?: readonly string[];
  /** Empty or absent: every source; callers resolve the protocol's default. */
  sourceKinds?: readonly ThreadSourceKind[];
  archived: boolean;
  /** Exact match on any of these. */
  cwd?: readonly string[];
  /** Case-insensitive substring of the name or the preview. */
  searchTerm?: string;
  /** Keeps only the threads this accepts (thread/list's sectionId). */
  only?: (id: string) => boolean;
}

/** List options; absent ones default to the newest 25 unarchived threads by creation time. */
export type ListOptions = Partial<ListQuery>;
const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 200;

/** The query a listing runs: the defaults filled in, the limit kept between 1 and MAX_LIMIT. */
export function listQuery(options: ListOptions): ListQuery {
  const limit = Math.min(Math.max(1, Math.floor(options.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT), MAX_LIMIT);
  return {
    ...options,
    limit,
    sortKey: options.sortKey ?? 'created_at',
    sortDirection: options.sortDirection ?? 'desc',
    archived: options.archived ?? false,
  };
}

export interface ListPage {
  data: ThreadSummary[];
  nextCursor: string | null;
}

export class InvalidCursorError extends Error {
  constructor(cursor: string, why: string) {
    super(`Invalid params: cursor: '${cursor.slice(0, 60)}' ${why}`);
  }
}

/** A row's place in the order: its sort value and its id. */
export type Position = [number, string];

const TAGS: Record<StoredSortKey, string> = { created_at: 'c', updated_at: 'u' };

function encodeCursor(sortKey: StoredSortKey, [value, id]: Position): string {
  return Buffer.from(JSON.stringify([TAGS[sortKey], value, id])).toString('base64url');
}

function decodeCursor(cursor: string, sortKey: StoredSortKey): Position {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // reported below
  }
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    !Object.values(TAGS).includes(value[0]) ||
    !Number.isFinite(value[1]) ||
    typeof value[2] !== 'string'
  ) {
    throw new InvalidCursorError(cursor, 'is not a cursor this server issued');
  }
  if (value[0] !== TAGS[sortKey]) {
    throw new InvalidCursorError(cursor, `belongs to another sortKey than ${sortKey}`);
  }
  return [value[1] as number, value[2] as string];
}

/** The kind a thread's source counts as for `sourceKinds` filters. */
export function sourceKind(source: SessionSource): string {
  return typeof source === 'string' ? source : 'unknown';
}

/** Newest first, ties broken by id: the order every list is a walk over. */
function compareDesc(a: Position, b: Position): number {
  return b[0] - a[0] || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0);
}

/**
 * One page of rows from `order` (newest first), walked in the query's direction from just past
 * its cursor, keeping the rows that match.
 */
export function pageOf(
  order: readonly number[],
  position: (row: number) => Position,
  matches: (row: number) => boolean,
  query: ListQuery,
): { rows: number[]; nextCursor: string | null } {
  const ascending = query.sortDirection === 'asc';
  const step = ascending ? -1 : 1;
  let index = ascending ? order.length - 1 : 0;
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor, query.sortKey);
    // In newest-first order, rows newer than the cursor come first, then (at most) its own row.
    const newer = firstIndexWhere(order, (row) => compareDesc(position(row), after) >= 0);
    const newerOrSame = firstIndexWhere(order, (row) => compareDesc(position(row), after) > 0);
    index = ascending ? newer - 1 : newerOrSame;
  }
  const rows: number[] = [];
  for (; index >= 0 && index < order.length; index += step) {
    const row = order[index]!;
    if (!matches(row)) continue;
    if (rows.length === query.limit) {
      const last = rows[rows.length - 1];
      return { rows, nextCursor: last === undefined ? null : encodeCursor(query.sortKey, position(last)) };
    }
    rows.push(row);
  }
  return { rows, nextCursor: null };
}

/**
 * One page over several sources (each already paged with the same query): their rows merged in the
 * query's order, the first `limit` of them, and a cursor past the last when any source has more.
 * Cursors are positions, so each source continues from the same cursor next time.
 */
export function mergePages(pages: ListPage[], query: ListQuery): ListPage {
  const key = query.sortKey === 'created_at' ? 'createdAt' : 'updatedAt';
  const position = (summary: ThreadSummary): Position => [summary[key], summary.id];
  const sign = query.sortDirection === 'asc' ? -1 : 1;
  const rows = pages
    .flatMap((page) => page.data)
    .sort((a, b) => sign * compareDesc(position(a), position(b)));
  const data = rows.slice(0, query.limit);
  const more = rows.length > query.limit || pages.some((page) => page.nextCursor !== null);
  const last = data[data.length - 1];
  return { data, nextCursor: more && last ? encodeCursor(query.sortKey, position(last)) : null };
}

/** The first index whose row satisfies a predicate that is false, then true, along the order. */
function firstIndexWhere(order: readonly number[], test: (row: number) => boolean): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(order[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Whether one summary passes a query's filters (archived, providers, sources, cwd), for lists
 * ordered by something other than the table's own orders (search relevance).
 */
export function passesFilters(
  summary: ThreadSummary,
  query: Omit<ListQuery, 'limit' | 'sortKey' | 'sortDirection'>,
): boolean {
  return (
    summary.archived === query.archived &&
    (!query.modelProviders?.length || query.modelProviders.includes(summary.modelProvider)) &&
    (!query.sourceKinds?.length ||
      (query.sourceKinds as readonly string[]).includes(sourceKind(summary.source))) &&
    (!query.cwd?.length || query.cwd.includes(summary.cwd)) &&
    (!query.only || query.only(summary.id))
  );
}
