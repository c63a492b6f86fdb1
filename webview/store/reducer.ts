// The pure reducer: (state, protocol notification) → state. Unchanged records keep their identity,
// so a component subscribed to one item re-renders only when that item changed. Malformed or
// unknown notifications leave the state as it was: the protocol grows, and bad input must not
// break the view.
import type { ThreadItem } from '../../server/protocol/items';
import type { NotificationParamsOf } from '../../server/protocol/methods';
import type { Turn } from '../../server/protocol/thread';
import type { ProtocolNotification, ThreadSnapshot } from '../../shared/webviewMessages';
import {
  emptyState,
  endsInError,
  itemKey,
  turnErrorRowKey,
  turnRowKey,
  type AnyItem,
  type ConversationState,
  type Row,
  type TokenUsage,
  type TurnView,
} from './state';

export function fromSnapshot(snapshot: ThreadSnapshot): ConversationState {
  const base: ConversationState = {
    ...emptyState,
    thread: snapshot.thread,
    settings: snapshot.settings,
    hasOlderTurns: snapshot.hasOlderTurns,
  };
  return withRows(addTurns(base, snapshot.turns, 'append'));
}

/** Older turns from paging, placed before the ones already shown. */
export function prependTurns(
  state: ConversationState,
  turns: Turn[],
  hasOlderTurns: boolean,
): ConversationState {
  const known = new Set(state.turnIds);
  const fresh = turns.filter((t) => !known.has(t.id));
  return withRows({ ...addTurns(state, fresh, 'prepend'), hasOlderTurns });
}

/** Applies a batch (a frame's deltas). Equal to reducing one by one, without copying a map per delta. */
export function reduceAll(
  state: ConversationState,
  notifications: ProtocolNotification[],
): ConversationState {
  owned = new WeakSet();
  try {
    return notifications.reduce(reduceOne, state);
  } finally {
    owned = new WeakSet();
  }
}

export function reduce(state: ConversationState, notification: ProtocolNotification): ConversationState {
  return reduceAll(state, [notification]);
}

/**
 * Maps (items, turns, progress) this batch created: nobody outside has seen them yet, so further
 * changes in the same batch go into them in place. Maps from before the batch are never touched.
 */
let owned = new WeakSet<object>();

function withEntry<T>(map: Record<string, T>, key: string, value: T): Record<string, T> {
  if (owned.has(map)) {
    map[key] = value;
    return map;
  }
  const copy = { ...map, [key]: value };
  owned.add(copy);
  return copy;
}

function reduceOne(state: ConversationState, notification: ProtocolNotification): ConversationState {
  const params = notification.params;
  if (!isRecord(params) || !state.thread) return state;
  if (typeof params.threadId === 'string' && params.threadId !== state.thread.id) return state;
  if (notification.method === 'thread/started') return state;
  const handler = handlers[notification.method];
  return handler ? handler(state, params) : state;
}

type Handler = (state: ConversationState, params: Record<string, unknown>) => ConversationState;

/** Text appended to one field of an item, for the item/…/delta notifications. */
interface ItemDelta {
  turnId: string;
  itemId: string;
  delta: string;
}

const handlers: Record<string, Handler> = {
  'thread/status/changed': (state, p) =>
    isRecord(p.status)
      ? {
          ...state,
          thread: {
            ...state.thread!,
            status: p.status as NotificationParamsOf<'thread/status/changed'>['status'],
          },
        }
      : state,
  'thread/name/updated': (state, p) =>
    p.threadName === null || typeof p.threadName === 'string'
      ? { ...state, thread: { ...state.thread!, name: p.threadName } }
      : state,
  'thread/closed': (state) => ({ ...state, thread: { ...state.thread!, status: { type: 'notLoaded' } } }),
  'turn/started': (state, p) => (isTurn(p.turn) ? upsertTurn(state, p.turn) : state),
  'turn/completed': (state, p) => (isTurn(p.turn) ? upsertTurn(state, p.turn) : state),
  'turn/plan/updated': (state, p) => {
    if (typeof p.turnId !== 'string' || !Array.isArray(p.plan)) return state;
    const plan = { explanation: typeof p.explanation === 'string' ? p.explanation : null, steps: p.plan };
    return updateTurn(state, p.turnId, (t) => ({ ...t, plan }));
  },
  'turn/diff/updated': (state, p) =>
    typeof p.turnId === 'string' && typeof p.diff === 'string'
      ? updateTurn(state, p.turnId, (t) => ({ ...t, diff: p.diff as string }))
      : state,
  'item/started': (state, p) =>
    typeof p.turnId === 'string' && isItem(p.item) ? upsertItem(state, p.turnId, p.item) : state,
  'item/completed': (state, p) =>
    typeof p.turnId === 'string' && isItem(p.item) ? upsertItem(state, p.turnId, p.item) : state,
  'item/agentMessage/delta': appendTo('agentMessage', (item, d) => ({
    ...item,
    text: text(item.text) + d.delta,
  })),
  'item/plan/delta': appendTo('plan', (item, d) => ({ ...item, text: text(item.text) + d.delta })),
  'item/reasoning/summaryTextDelta': appendTo('reasoning', (item, d, p) =>
    appendPart(item, 'summary', p.summaryIndex, d.delta),
  ),
  'item/reasoning/summaryPartAdded': appendTo('reasoning', (item, _d, p) =>
    appendPart(item, 'summary', p.summaryIndex, ''),
  ),
  'item/reasoning/textDelta': appendTo('reasoning', (item, d, p) =>
    appendPart(item, 'content', p.contentIndex, d.delta),
  ),
  'item/commandExecution/outputDelta': appendTo('commandExecution', (item, d) => ({
    ...item,
    aggregatedOutput: text(item.aggregatedOutput) + d.delta,
  })),
  'item/fileChange/patchUpdated': (state, p) =>
    typeof p.turnId === 'string' && typeof p.itemId === 'string' && Array.isArray(p.changes)
      ? updateItem(state, p.turnId, p.itemId, (item) => ({ ...item, changes: p.changes }))
      : state,
  'item/mcpToolCall/progress': (state, p) => {
    if (typeof p.turnId !== 'string' || typeof p.itemId !== 'string' || typeof p.message !== 'string')
      return state;
    return { ...state, progress: withEntry(state.progress, itemKey(p.turnId, p.itemId), p.message) };
  },
  'thread/tokenUsage/updated': (state, p) => {
    if (typeof p.turnId !== 'string' || !isRecord(p.tokenUsage) || !isRecord(p.tokenUsage.last)) return state;
    const usage = p.tokenUsage as unknown as TokenUsage;
    return updateTurn({ ...state, tokenUsage: usage }, p.turnId, (t) => ({ ...t, usage: usage.total }));
  },
  error: (state, p) => {
    if (typeof p.turnId !== 'string' || !isRecord(p.error) || typeof p.error.message !== 'string')
      return state;
    const error = p.error as unknown as TurnView['error'] & object;
    return updateTurn(state, p.turnId, (t) =>
      p.willRetry === true ? { ...t, retrying: error.message } : { ...t, error, retrying: null },
    );
  },
};

/** A delta handler for items of one type; a delta for an item not seen yet starts it empty. */
function appendTo(
  type: string,
  apply: (
    item: Record<string, unknown> & AnyItem,
    delta: ItemDelta,
    params: Record<string, unknown>,
  ) => AnyItem,
): Handler {
  return (state, p) => {
    if (typeof p.turnId !== 'string' || typeof p.itemId !== 'string' || typeof p.delta !== 'string')
      return state;
    const delta = p as unknown as ItemDelta;
    const key = itemKey(delta.turnId, delta.itemId);
    const started = state.items[key]
      ? state
      : upsertItem(state, delta.turnId, placeholder(type, delta.itemId));
    return updateItem(started, delta.turnId, delta.itemId, (item) => apply(item, delta, p));
  };
}

function placeholder(type: string, id: string): AnyItem {
  if (type === 'reasoning') return { type, id, summary: [], content: [] };
  if (type === 'commandExecution')
    return { type, id, command: '', cwd: '', commandActions: [], status: 'inProgress' };
  return { type, id, text: '' };
}

function appendPart(
  item: Record<string, unknown> & AnyItem,
  field: 'summary' | 'content',
  index: unknown,
  delta: string,
): AnyItem {
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 10_000) return item;
  const parts = Array.isArray(item[field]) ? [...(item[field] as string[])] : [];
  while (parts.length <= index) parts.push('');
  parts[index] = text(parts[index]) + delta;
  return { ...item, [field]: parts };
}

function upsertTurn(state: ConversationState, turn: Turn): ConversationState {
  const existing = state.turns[turn.id];
  const view: TurnView = {
    ...(existing ?? newTurn(turn.id)),
    status: turn.status,
    error: turn.error,
    startedAt: turn.startedAt,
    completedAt: turn.completedAt,
    durationMs: turn.durationMs,
  };
  if (turn.status !== 'inProgress') view.retrying = null;
  let next: ConversationState = existing
    ? rowsIfEndChanged(existing, view, { ...state, turns: withEntry(state.turns, turn.id, view) })
    : withRows({
        ...state,
        turnIds: [...state.turnIds, turn.id],
        turns: withEntry(state.turns, turn.id, view),
      });
  for (const item of turn.items) next = upsertItem(next, turn.id, item);
  return next;
}

function newTurn(id: string): TurnView {
  return {
    id,
    status: 'inProgress',
    error: null,
    retrying: null,
    startedAt: null,
    completedAt: null,
    durationMs: null,
    itemKeys: [],
    diff: null,
    plan: null,
    usage: null,
  };
}

function upsertItem(state: ConversationState, turnId: string, item: AnyItem): ConversationState {
  const key = itemKey(turnId, item.id);
  let next = state.turns[turnId] ? state : upsertTurn(state, placeholderTurn(turnId));
  const items = withEntry(next.items, key, item);
  const turn = next.turns[turnId];
  if (turn.itemKeys.includes(key)) return { ...next, items };
  next = {
    ...next,
    items,
    turns: withEntry(next.turns, turnId, { ...turn, itemKeys: [...turn.itemKeys, key] }),
  };
  return withRows(next);
}

/** A turn we hear of through an item before its turn/started (the host resyncs such gaps anyway). */
function placeholderTurn(id: string): Turn {
  return {
    id,
    items: [],
    status: 'inProgress',
    error: null,
    startedAt: null,
    completedAt: null,
    durationMs: null,
  };
}

function updateItem(
  state: ConversationState,
  turnId: string,
  itemId: string,
  change: (item: Record<string, unknown> & AnyItem) => AnyItem,
): ConversationState {
  const key = itemKey(turnId, itemId);
  const item = state.items[key];
  if (!item) return state;
  return { ...state, items: withEntry(state.items, key, change(item as Record<string, unknown> & AnyItem)) };
}

function updateTurn(
  state: ConversationState,
  turnId: string,
  change: (turn: TurnView) => TurnView,
): ConversationState {
  const known = state.turns[turnId] ? state : upsertTurn(state, placeholderTurn(turnId));
  const before = known.turns[turnId];
  const after = change(before);
  return rowsIfEndChanged(before, after, { ...known, turns: withEntry(known.turns, turnId, after) });
}

/** Rows change only when a turn's error row comes or goes, never on other turn updates. */
function rowsIfEndChanged(before: TurnView, after: TurnView, state: ConversationState): ConversationState {
  return endsInError(before) === endsInError(after) ? state : withRows(state);
}

function addTurns(state: ConversationState, turns: Turn[], where: 'append' | 'prepend'): ConversationState {
  const turnMap = { ...state.turns };
  const items = { ...state.items };
  for (const turn of turns) {
    const view = { ...newTurn(turn.id), ...pickTurn(turn), itemKeys: [] as string[] };
    for (const item of turn.items.filter(isItem)) {
      const key = itemKey(turn.id, item.id);
      if (!(key in items)) view.itemKeys.push(key);
      items[key] = item;
    }
    turnMap[turn.id] = view;
  }
  const ids = turns.map((t) => t.id);
  const turnIds = where === 'append' ? [...state.turnIds, ...ids] : [...ids, ...state.turnIds];
  return { ...state, turns: turnMap, items, turnIds };
}

function pickTurn(turn: Turn): Partial<TurnView> {
  const { status, error, startedAt, completedAt, durationMs } = turn;
  return { status, error, startedAt, completedAt, durationMs };
}

function withRows(state: ConversationState): ConversationState {
  const rows: Row[] = [];
  for (const turnId of state.turnIds) {
    rows.push({ kind: 'turn', key: turnRowKey(turnId), turnId });
    for (const key of state.turns[turnId].itemKeys) rows.push({ kind: 'item', key, turnId });
    if (endsInError(state.turns[turnId]))
      rows.push({ kind: 'turnError', key: turnErrorRowKey(turnId), turnId });
  }
  return { ...state, rows };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isItem(value: unknown): value is ThreadItem {
  return isRecord(value) && typeof value.type === 'string' && typeof value.id === 'string';
}

function isTurn(value: unknown): value is Turn {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.status === 'string' &&
    Array.isArray(value.items)
  );
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
