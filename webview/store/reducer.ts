// The pure reducer: (state, protocol notification) → state. Unchanged records keep their identity,
// so a component subscribed to one item re-renders only when that item changed. Each notification is
// checked against its method's schema once, here, where it enters the view; malformed or unknown ones
// leave the state as it was (the protocol grows, and bad input must not break the view).
import type { ReasoningItem, ThreadItem } from '../../server/protocol/items';
import { isThreadItem } from '../../server/protocol/itemTypes';
import { routeNotification, type NotificationHandlers } from '../../server/protocol/notificationRoutes';
import type { Turn } from '../../server/protocol/thread';
import type { ProtocolNotification, ThreadSnapshot } from '../messages';
import {
  earlierItemsRowKey,
  emptyState,
  endsInError,
  hookRunItem,
  itemKey,
  turnErrorRowKey,
  turnRowKey,
  type AnyItem,
  type ConversationState,
  type Row,
  type TurnView,
} from './state';

export function fromSnapshot(snapshot: ThreadSnapshot): ConversationState {
  const base: ConversationState = {
    ...emptyState,
    thread: snapshot.thread,
    settings: snapshot.settings,
    hasOlderTurns: snapshot.hasOlderTurns,
    goal: snapshot.goal ?? null,
  };
  return withRows(withEarlierItems(addTurns(base, snapshot.turns, 'append'), snapshot.earlierItems ?? []));
}

/** Older turns from paging, placed before the ones already shown; `earlierItems`: those sent in part. */
export function prependTurns(
  state: ConversationState,
  turns: Turn[],
  hasOlderTurns: boolean,
  earlierItems: string[] = [],
): ConversationState {
  const known = new Set(state.turnIds);
  const fresh = turns.filter((t) => !known.has(t.id));
  return withRows({ ...withEarlierItems(addTurns(state, fresh, 'prepend'), earlierItems), hasOlderTurns });
}

/** A long turn's earlier items, placed before its items already shown. */
export function prependItems(
  state: ConversationState,
  turnId: string,
  earlier: ThreadItem[],
  hasEarlierItems: boolean,
): ConversationState {
  const turn = state.turns[turnId];
  if (!turn) return state;
  const items = { ...state.items };
  const keys: string[] = [];
  for (const item of earlier) {
    const key = itemKey(turnId, item.id);
    if (key in items) continue;
    keys.push(key);
    items[key] = item;
  }
  const view = { ...turn, itemKeys: [...keys, ...turn.itemKeys], earlierItems: hasEarlierItems };
  return withRows({ ...state, items, turns: { ...state.turns, [turnId]: view } });
}

function withEarlierItems(state: ConversationState, turnIds: string[]): ConversationState {
  const partial = turnIds.filter((id) => state.turns[id]);
  if (!partial.length) return state;
  const turns = { ...state.turns };
  for (const id of partial) turns[id] = { ...turns[id], earlierItems: true };
  return { ...state, turns };
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
  if (!state.thread) return state;
  if ('threadId' in notification.params && notification.params.threadId !== state.thread.id) return state;
  return routeNotification(handlers, notification, state) ?? state;
}

const handlers: NotificationHandlers<ConversationState, [ConversationState]> = {
  'thread/status/changed': (state, { status }) => ({ ...state, thread: { ...state.thread!, status } }),
  'thread/name/updated': (state, { threadName }) => ({
    ...state,
    thread: { ...state.thread!, name: threadName },
  }),
  'thread/goal/updated': (state, { goal }) => ({ ...state, goal }),
  'thread/goal/cleared': (state) => ({ ...state, goal: null }),
  'thread/closed': (state) => ({ ...state, thread: { ...state.thread!, status: { type: 'notLoaded' } } }),
  'turn/started': (state, { turn }) => upsertTurn(state, turn),
  'turn/completed': (state, { turn }) => upsertTurn(state, turn),
  'turn/plan/updated': (state, { turnId, explanation, plan }) =>
    updateTurn(state, turnId, (t) => ({ ...t, plan: { explanation: explanation ?? null, steps: plan } })),
  'turn/diff/updated': (state, { turnId, diff }) => updateTurn(state, turnId, (t) => ({ ...t, diff })),
  'item/started': (state, { turnId, item }) => upsertItem(state, turnId, item),
  'item/completed': (state, { turnId, item }) => upsertItem(state, turnId, item),
  'item/agentMessage/delta': (state, d) =>
    appendTo(state, d, 'agentMessage', (item) => ({ ...item, text: item.text + d.delta })),
  'item/plan/delta': (state, d) =>
    appendTo(state, d, 'plan', (item) => ({ ...item, text: item.text + d.delta })),
  'item/reasoning/summaryTextDelta': (state, d) =>
    appendTo(state, d, 'reasoning', (item) => appendPart(item, 'summary', d.summaryIndex, d.delta)),
  'item/reasoning/summaryPartAdded': (state, d) =>
    appendTo(state, d, 'reasoning', (item) => appendPart(item, 'summary', d.summaryIndex, '')),
  'item/reasoning/textDelta': (state, d) =>
    appendTo(state, d, 'reasoning', (item) => appendPart(item, 'content', d.contentIndex, d.delta)),
  'item/commandExecution/outputDelta': (state, d) =>
    appendTo(state, d, 'commandExecution', (item) => ({
      ...item,
      aggregatedOutput: (item.aggregatedOutput ?? '') + d.delta,
    })),
  'item/fileChange/patchUpdated': (state, { turnId, itemId, changes }) =>
    updateItem(state, turnId, itemId, 'fileChange', (item) => ({ ...item, changes })),
  'item/mcpToolCall/progress': (state, { turnId, itemId, message }) => ({
    ...state,
    progress: withEntry(state.progress, itemKey(turnId, itemId), message),
  }),
  'hook/started': (state, { turnId, run }) => (turnId ? upsertItem(state, turnId, hookRunItem(run)) : state),
  'hook/completed': (state, { turnId, run }) => {
    if (!turnId) return state;
    const item = hookRunItem(run);
    // A hook that ran and said nothing leaves no row; one that blocked, failed or spoke stays.
    const quiet = run.status === 'completed' && run.entries.length === 0;
    return quiet ? removeItem(state, turnId, item.id) : upsertItem(state, turnId, item);
  },
  'thread/tokenUsage/updated': (state, { turnId, tokenUsage }) =>
    updateTurn({ ...state, tokenUsage }, turnId, (t) => ({ ...t, usage: tokenUsage.total })),
  error: (state, { turnId, error, willRetry }) =>
    updateTurn(state, turnId, (t) =>
      willRetry ? { ...t, retrying: error.message } : { ...t, error, retrying: null },
    ),
};

/** The items text deltas stream into, each with how a delta for one not seen yet starts it. */
const placeholders: { [T in StreamedType]: (id: string) => ItemOf<T> } = {
  agentMessage: (id) => ({ type: 'agentMessage', id, text: '' }),
  plan: (id) => ({ type: 'plan', id, text: '' }),
  reasoning: (id) => ({ type: 'reasoning', id, summary: [], content: [] }),
  commandExecution: (id) => ({
    type: 'commandExecution',
    id,
    command: '',
    cwd: '',
    commandActions: [],
    status: 'inProgress',
  }),
};
type StreamedType = 'agentMessage' | 'plan' | 'reasoning' | 'commandExecution';
type ItemOf<T extends ThreadItem['type']> = Extract<ThreadItem, { type: T }>;

/** Applies a delta to its item; a delta for an item not seen yet starts it empty. */
function appendTo<T extends StreamedType>(
  state: ConversationState,
  { turnId, itemId }: { turnId: string; itemId: string },
  type: T,
  apply: (item: ItemOf<T>) => ItemOf<T>,
): ConversationState {
  const started = state.items[itemKey(turnId, itemId)]
    ? state
    : upsertItem(state, turnId, placeholders[type](itemId));
  return updateItem(started, turnId, itemId, type, apply);
}

function appendPart(item: ReasoningItem, field: 'summary' | 'content', index: number, delta: string) {
  if (index < 0 || index > 10_000) return item;
  const parts = [...item[field]];
  while (parts.length <= index) parts.push('');
  parts[index] += delta;
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
    earlierItems: false,
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

function removeItem(state: ConversationState, turnId: string, itemId: string): ConversationState {
  const key = itemKey(turnId, itemId);
  const turn = state.turns[turnId];
  if (!turn?.itemKeys.includes(key)) return state;
  const items = { ...state.items };
  delete items[key];
  const itemKeys = turn.itemKeys.filter((k) => k !== key);
  return withRows({ ...state, items, turns: withEntry(state.turns, turnId, { ...turn, itemKeys }) });
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

/** Changes an item of the given type; an item missing or of another type is left alone. */
function updateItem<T extends ThreadItem['type']>(
  state: ConversationState,
  turnId: string,
  itemId: string,
  type: T,
  change: (item: ItemOf<T>) => ItemOf<T>,
): ConversationState {
  const key = itemKey(turnId, itemId);
  const item = state.items[key];
  if (!item || !isOfType(item, type)) return state;
  return { ...state, items: withEntry(state.items, key, change(item)) };
}

function isOfType<T extends ThreadItem['type']>(item: AnyItem, type: T): item is ItemOf<T> {
  return isThreadItem(item) && item.type === type;
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
    for (const item of turn.items) {
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
    if (state.turns[turnId].earlierItems)
      rows.push({ kind: 'earlierItems', key: earlierItemsRowKey(turnId), turnId });
    for (const key of state.turns[turnId].itemKeys) rows.push({ kind: 'item', key, turnId });
    if (endsInError(state.turns[turnId]))
      rows.push({ kind: 'turnError', key: turnErrorRowKey(turnId), turnId });
  }
  return { ...state, rows };
}
