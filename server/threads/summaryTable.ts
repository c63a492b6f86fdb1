// The index in memory: one array per summary field (a column) rather than one object per thread.
// Loading it is one JSON.parse of a few long arrays, with no per-thread objects to build or
// collect, which keeps a 10,000-thread index to a few MiB; a ThreadSummary object is made only for
// the rows a caller asks for. Values that many threads repeat (cwd, provider, model, source,
// originator, CLI version) are stored once and referred to by number. Rows of deleted threads stay
// as holes (id null) until the next snapshot leaves them out.
import type { StoredSortKey } from '../protocol/enums';
import type { GitInfo, SessionSource } from '../protocol/thread';
import { pageOf, sourceKind, type ListPage, type ListQuery, type Position } from './listing';
import { rolloutPath } from './rolloutFiles';
import type { ThreadSummary } from './summary';

const keyOf = (value: unknown) => (typeof value === 'string' ? value : `\0${JSON.stringify(value)}`);

/** Distinct values of one field, numbered in order of first use. */
class Interned<T> {
  private readonly codes = new Map<string, number>();

  constructor(readonly values: T[] = []) {
    values.forEach((value, code) => this.codes.set(keyOf(value), code));
  }

  code(value: T): number {
    const key = keyOf(value);
    let code = this.codes.get(key);
    if (code === undefined) {
      code = this.values.push(value) - 1;
      this.codes.set(key, code);
    }
    return code;
  }

  find(value: T): number | undefined {
    return this.codes.get(keyOf(value));
  }
}

const SHARED = ['cwd', 'modelProvider', 'model', 'source', 'originator', 'cliVersion'] as const;
type Shared = (typeof SHARED)[number];
type SharedValues = { [K in Shared]: ThreadSummary[K][] };

/** The columns as stored: shared fields hold codes into `values`; `path` is null when derivable. */
export interface Columns {
  id: (string | null)[];
  createdAt: number[];
  updatedAt: number[];
  archived: number[];
  cwd: number[];
  modelProvider: number[];
  model: number[];
  source: number[];
  originator: number[];
  cliVersion: number[];
  name: (string | null)[];
  preview: string[];
  forkedFromId: (string | null)[];
  gitInfo: (GitInfo | null)[];
  path: (string | null)[];
  /** The rollout's size when last indexed: a different size means it changed behind our back. */
  bytes: number[];
}

export interface TableSnapshot {
  values: SharedValues;
  columns: Columns;
}

const COLUMN_NAMES = [
  'id',
  'createdAt',
  'updatedAt',
  'archived',
  ...SHARED,
  'name',
  'preview',
  'forkedFromId',
  'gitInfo',
  'path',
  'bytes',
] as const satisfies readonly (keyof Columns)[];

const emptyColumns = (): Columns =>
  Object.fromEntries(COLUMN_NAMES.map((name) => [name, []])) as unknown as Columns;

export class SummaryTable {
  private readonly rowOf = new Map<string, number>();
  private readonly shared: { [K in Shared]: Interned<ThreadSummary[K]> };
  /** Live rows sorted newest first (ties by id, descending), per sort key; built on first use. */
  private readonly orders = new Map<StoredSortKey, number[]>();

  private constructor(
    private readonly columns: Columns,
    values: SharedValues,
  ) {
    this.shared = {
      cwd: new Interned(values.cwd),
      modelProvider: new Interned(values.modelProvider),
      model: new Interned(values.model),
      source: new Interned(values.source),
      originator: new Interned(values.originator),
      cliVersion: new Interned(values.cliVersion),
    };
    columns.id.forEach((id, row) => id !== null && this.rowOf.set(id, row));
  }

  static empty(): SummaryTable {
    return new SummaryTable(emptyColumns(), {
      cwd: [],
      modelProvider: [],
      model: [],
      source: [],
      originator: [],
      cliVersion: [],
    });
  }

  /** Adopts parsed snapshot data after checking its shape; throws when it is not a table. */
  static fromSnapshot(data: unknown): SummaryTable {
    const { columns, values } = (data ?? {}) as Partial<TableSnapshot>;
    const rows = columns?.id?.length;
    if (!columns || !values || rows === undefined) throw new Error('no columns');
    for (const name of COLUMN_NAMES) {
      if (!Array.isArray(columns[name]) || columns[name].length !== rows)
        throw new Error(`bad column ${name}`);
    }
    for (const name of SHARED) {
      const count = Array.isArray(values[name]) ? values[name].length : -1;
      if (!columns[name].every((code) => Number.isInteger(code) && code >= 0 && code < count)) {
        throw new Error(`bad codes in column ${name}`);
      }
    }
    return new SummaryTable(columns, values);
  }

  /** Live rows only, newest first, so the next load finds its created_at order already sorted. */
  toSnapshot(): TableSnapshot {
    const out = emptyColumns();
    const values = {
      cwd: [],
      modelProvider: [],
      model: [],
      source: [],
      originator: [],
      cliVersion: [],
    } as SharedValues;
    const recode = Object.fromEntries(
      SHARED.map((field) => [field, new Interned(values[field] as unknown[])]),
    );
    for (const row of this.order('created_at')) {
      for (const name of COLUMN_NAMES) {
        const value = this.columns[name][row];
        const shared = recode[name];
        (out[name] as unknown[]).push(
          shared ? shared.code(this.shared[name as Shared].values[value as number]) : value,
        );
      }
    }
    return { columns: out, values };
  }

  get size(): number {
    return this.rowOf.size;
  }

  ids(): IterableIterator<string> {
    return this.rowOf.keys();
  }

  get(id: string): ThreadSummary | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.summaryAt(row);
  }

  /** The rollout's path relative to the home, without building the whole summary. */
  pathOf(id: string): string | undefined {
    const row = this.rowOf.get(id);
    if (row === undefined) return undefined;
    const c = this.columns;
    return c.path[row] ?? rolloutPath(id, c.createdAt[row]!, c.archived[row] === 1);
  }

  /** The threads forked from a thread, newest first. */
  forksOf(id: string): string[] {
    const { forkedFromId } = this.columns;
    return this.order('created_at')
      .filter((row) => forkedFromId[row] === id)
      .map((row) => this.columns.id[row]!);
  }

  bytesOf(id: string): number | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.columns.bytes[row];
  }

  /**
   * Adds or replaces a thread's summary: 'changed', or 'size' when only the rollout's size moved
   * (nothing a listing shows), or 'same'.
   */
  put(summary: ThreadSummary, bytes: number): 'changed' | 'size' | 'same' {
    const row = this.rowOf.get(summary.id);
    if (row === undefined) {
      this.insert(summary, bytes);
      return 'changed';
    }
    if (sameSummary(this.summaryAt(row), summary)) {
      if (this.columns.bytes[row] === bytes) return 'same';
      this.columns.bytes[row] = bytes;
      return 'size';
    }
    this.unorder(row);
    this.write(row, summary, bytes);
    this.reorder(row);
    return 'changed';
  }

  delete(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    this.unorder(row);
    this.rowOf.delete(id);
    this.columns.id[row] = null;
    return true;
  }

  page(query: ListQuery): ListPage {
    const { createdAt, updatedAt, id } = this.columns;
    const key = query.sortKey === 'created_at' ? createdAt : updatedAt;
    const position = (row: number): Position => [key[row]!, id[row]!];
    const { rows, nextCursor } = pageOf(this.order(query.sortKey), position, this.matcher(query), query);
    return { data: rows.map((row) => this.summaryAt(row)), nextCursor };
  }

  private matcher(query: ListQuery): (row: number) => boolean {
    const { archived, modelProvider, source, cwd, name, preview, id } = this.columns;
    const only = query.only;
    const wanted = query.archived ? 1 : 0;
    const codes = <K extends Shared>(field: K, values: readonly ThreadSummary[K][] | undefined) =>
      values?.length ? new Set(values.map((v) => this.shared[field].find(v))) : undefined;
    const providers = codes('modelProvider', query.modelProviders);
    const cwds = codes('cwd', query.cwd);
    const kinds = query.sourceKinds?.length ? new Set<string>(query.sourceKinds) : undefined;
    const sources = kinds && this.shared.source.values.map((value) => kinds.has(sourceKind(value)));
    const term = query.searchTerm?.trim().toLowerCase() || undefined;
    return (row) =>
      archived[row] === wanted &&
      (!providers || providers.has(modelProvider[row])) &&
      (!sources || sources[source[row]!] === true) &&
      (!cwds || cwds.has(cwd[row])) &&
      (!only || only(id[row]!)) &&
      (!term || preview[row]!.toLowerCase().includes(term) || !!name[row]?.toLowerCase().includes(term));
  }

  private summaryAt(row: number): ThreadSummary {
    const c = this.columns;
    const { cwd, modelProvider, model, source, originator, cliVersion } = this.shared;
    const id = c.id[row]!;
    const createdAt = c.createdAt[row]!;
    const archived = c.archived[row] === 1;
    return {
      id,
      createdAt,
      updatedAt: c.updatedAt[row]!,
      cwd: cwd.values[c.cwd[row]!]!,
      modelProvider: modelProvider.values[c.modelProvider[row]!]!,
      model: model.values[c.model[row]!]!,
      source: source.values[c.source[row]!]! as SessionSource,
      originator: originator.values[c.originator[row]!]!,
      cliVersion: cliVersion.values[c.cliVersion[row]!]!,
      forkedFromId: c.forkedFromId[row]!,
      gitInfo: c.gitInfo[row]!,
      name: c.name[row]!,
      preview: c.preview[row]!,
      archived,
      path: this.pathOf(id)!,
    };
  }

  private insert(summary: ThreadSummary, bytes: number): void {
    const row = this.columns.id.length;
    this.write(row, summary, bytes);
    this.rowOf.set(summary.id, row);
    this.reorder(row);
  }

  private write(row: number, s: ThreadSummary, bytes: number): void {
    const c = this.columns;
    c.id[row] = s.id;
    c.createdAt[row] = s.createdAt;
    c.updatedAt[row] = s.updatedAt;
    c.archived[row] = s.archived ? 1 : 0;
    for (const field of SHARED) c[field][row] = (this.shared[field] as Interned<unknown>).code(s[field]);
    c.name[row] = s.name;
    c.preview[row] = s.preview;
    c.forkedFromId[row] = s.forkedFromId;
    c.gitInfo[row] = s.gitInfo;
    c.path[row] = s.path === rolloutPath(s.id, s.createdAt, s.archived) ? null : s.path;
    c.bytes[row] = bytes;
  }

  /** All live rows, newest first by the key. */
  private order(sortKey: StoredSortKey): number[] {
    let order = this.orders.get(sortKey);
    if (!order) {
      order = [...this.rowOf.values()];
      if (!isSorted(order, this.before(sortKey))) order.sort(this.before(sortKey));
      this.orders.set(sortKey, order);
    }
    return order;
  }

  /** A comparator: negative when row a comes first (newer, or the same time and a larger id). */
  private before(sortKey: StoredSortKey): (a: number, b: number) => number {
    const key = sortKey === 'created_at' ? this.columns.createdAt : this.columns.updatedAt;
    const id = this.columns.id;
    return (a, b) => key[b]! - key[a]! || (id[a]! < id[b]! ? 1 : id[a]! > id[b]! ? -1 : 0);
  }

  /** Takes a row out of the sort orders; call before its key columns change. */
  private unorder(row: number): void {
    for (const [sortKey, order] of this.orders) order.splice(this.slot(order, row, sortKey), 1);
  }

  private reorder(row: number): void {
    for (const [sortKey, order] of this.orders) order.splice(this.slot(order, row, sortKey), 0, row);
  }

  /** Where the row sits, or would sit, in a sorted order (binary search). */
  private slot(order: number[], row: number, sortKey: StoredSortKey): number {
    const before = this.before(sortKey);
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(order[mid]!, row) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function isSorted(order: number[], compare: (a: number, b: number) => number): boolean {
  for (let i = 1; i < order.length; i++) if (compare(order[i - 1]!, order[i]!) > 0) return false;
  return true;
}

function sameSummary(a: ThreadSummary, b: ThreadSummary): boolean {
  return (Object.keys(a) as (keyof ThreadSummary)[]).every((field) =>
    field === 'source' || field === 'gitInfo'
      ? JSON.stringify(a[field]) === JSON.stringify(b[field])
      : a[field] === b[field],
  );
}
