// The rollout format: one JSON record per line, each line ended by a newline, append-only. The
// first line describes the thread; later lines record turns, items, renames and history markers.
// Reading folds them into turns. Every `ts` is milliseconds since the epoch; the protocol's seconds
// are derived when reading.
//
//   {"type":"session_meta","ts":…,"meta":{id, createdAt (s), cwd, modelProvider, model, source,
//                                          originator, cliVersion, forkedFromId, gitInfo}}
//   {"type":"turn_started","ts":…,"turnId":"…"}
//   {"type":"item","ts":…,"turnId":"…","item":{…}}   a protocol ThreadItem, stored as given
//   {"type":"turn_completed","ts":…,"turnId":"…","status":"completed"|"interrupted"|"failed","error":…|null}
//   {"type":"name_set","ts":…,"name":"…"|null}
//   {"type":"rollback","ts":…,"numTurns":N}          drop the last N turns (as folded so far)
//   {"type":"revert","ts":…,"beforeTurnId":"…"}      drop that turn and every later one
//   {"type":"model","ts":…,"turnId":"…","entry":{"kind":…}}   what the model saw or said, verbatim
//   {"type":"compacted","ts":…,"turnId":"…","replacement":[…]} the model's history so far, summarized
//   {"type":"goal_set","ts":…,"goal":{objective, status, tokenBudget, createdAt (s)}|null}  the thread's goal
//   {"type":"injected","ts":…,"entries":[…]}  model entries a client appended (thread/inject_items), after the last turn
//   {"type":"git_info_set","ts":…,"gitInfo":{sha, branch, originUrl}|null}  replaces the meta's gitInfo
//   {"type":"token_count","ts":…,"turnId":"…","model":"…","effort":…|null,"usage":{inputTokens, …}}
//                                                    one model response's tokens (server/usage reads them)
//
// Markers never rewrite earlier lines: folding applies them, so every reader sees the pruned
// history. A line that does not parse or lacks its fields is skipped (and reported by the reader);
// items for a turn that was never started are dropped; a turn without `turn_completed` stays
// `inProgress`. Model entries are opaque here (the agent owns their shape); they fold into the
// model's view of the thread, following the same markers as the turns they belong to.
import type { ThreadItem } from '../protocol/items';
import { isTokenUsage } from '../providers/tokenUsage';
import type { TokenUsage } from '../providers/types';
import type { ThreadGoalStatus } from '../protocol/threadGoal';
import type { GitInfo, SessionSource, Turn, TurnError, TurnStatus } from '../protocol/thread';

export interface ThreadMeta {
  id: string;
  createdAt: number;
  cwd: string;
  modelProvider: string;
  model: string | null;
  source: SessionSource;
  /** The client that started the thread (its clientInfo.name), when known. */
  originator: string | null;
  cliVersion: string;
  forkedFromId: string | null;
  gitInfo: GitInfo | null;
}

export type RolloutRecord =
  | { type: 'session_meta'; ts: number; meta: ThreadMeta }
  | { type: 'turn_started'; ts: number; turnId: string }
  | { type: 'item'; ts: number; turnId: string; item: ThreadItem }
  | {
      type: 'turn_completed';
      ts: number;
      turnId: string;
      status: TurnStatus;
      error: TurnError | null;
    }
  | { type: 'name_set'; ts: number; name: string | null }
  | { type: 'rollback'; ts: number; numTurns: number }
  | { type: 'revert'; ts: number; beforeTurnId: string }
  | { type: 'model'; ts: number; turnId: string; entry: ModelEntry }
  | { type: 'compacted'; ts: number; turnId: string; replacement: ModelEntry[] }
  | { type: 'goal_set'; ts: number; goal: StoredGoal | null }
  | { type: 'git_info_set'; ts: number; gitInfo: GitInfo | null }
  | { type: 'injected'; ts: number; entries: ModelEntry[] }
  | {
      type: 'token_count';
      ts: number;
      turnId: string;
      model: string;
      effort: string | null;
      usage: TokenUsage;
    };

/** A thread's goal as recorded; the protocol's ThreadGoal adds the thread id and the counters. */
export interface StoredGoal {
  objective: string;
  status: ThreadGoalStatus;
  tokenBudget: number | null;
  /** Unix seconds. */
  createdAt: number;
}

/** One entry of the model's conversation, stored as the agent gave it. */
export type ModelEntry = { kind: string } & Record<string, unknown>;

const TURN_STATUSES = new Set<string>(['completed', 'interrupted', 'failed', 'inProgress']);

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;
const isString = (value: unknown): value is string => typeof value === 'string';
const orNull = <T>(value: unknown, check: (v: unknown) => v is T): T | null => (check(value) ? value : null);

/** A thread description, with the optional fields defaulted so older or hand-made files still index. */
function threadMeta(value: unknown): ThreadMeta | undefined {
  if (!isObject(value)) return undefined;
  const { id, createdAt, cwd, modelProvider, source } = value;
  if (!isString(id) || typeof createdAt !== 'number' || !isString(cwd) || !isString(modelProvider)) {
    return undefined;
  }
  const knownSource = isString(source) || (isObject(source) && isString(source.custom));
  return {
    id,
    createdAt: Math.floor(createdAt),
    cwd,
    modelProvider,
    model: orNull(value.model, isString),
    source: knownSource ? (source as SessionSource) : 'unknown',
    originator: orNull(value.originator, isString),
    cliVersion: isString(value.cliVersion) ? value.cliVersion : '',
    forkedFromId: orNull(value.forkedFromId, isString),
    gitInfo: orNull(value.gitInfo, isObject) as GitInfo | null,
  };
}

/** Whether a parsed line has the fields its type promises; anything else is treated as corrupt. */
function wellFormed(record: Fields): boolean {
  switch (record.type) {
    case 'turn_started':
      return isString(record.turnId);
    case 'item':
      return isString(record.turnId) && isObject(record.item) && isString(record.item.type);
    case 'turn_completed':
      return (
        isString(record.turnId) &&
        TURN_STATUSES.has(record.status as string) &&
        (record.error === null || record.error === undefined || isObject(record.error))
      );
    case 'name_set':
      return record.name === null || isString(record.name);
    case 'rollback':
      return Number.isInteger(record.numTurns) && (record.numTurns as number) >= 0;
    case 'revert':
      return isString(record.beforeTurnId);
    case 'model':
      return isString(record.turnId) && isModelEntry(record.entry);
    case 'compacted':
      return (
        isString(record.turnId) && Array.isArray(record.replacement) && record.replacement.every(isModelEntry)
      );
    case 'injected':
      return Array.isArray(record.entries) && record.entries.every(isModelEntry);
    case 'goal_set':
      return record.goal === null || isStoredGoal(record.goal);
    case 'git_info_set':
      return record.gitInfo === null || isObject(record.gitInfo);
    case 'token_count':
      return (
        isString(record.turnId) &&
        isString(record.model) &&
        (record.effort === null || isString(record.effort)) &&
        isTokenUsage(record.usage)
      );
    default:
      return false;
  }
}

const isModelEntry = (value: unknown): value is ModelEntry => isObject(value) && isString(value.kind);

const GOAL_STATUSES = new Set<string>([
  'active',
  'paused',
  'blocked',
  'usageLimited',
  'budgetLimited',
  'complete',
]);
const isStoredGoal = (value: unknown): value is StoredGoal =>
  isObject(value) &&
  isString(value.objective) &&
  GOAL_STATUSES.has(value.status as string) &&
  (value.tokenBudget === null || Number.isInteger(value.tokenBudget)) &&
  Number.isInteger(value.createdAt);

/** Parses one line; undefined for anything that is not a well-formed record we understand. */
export function parseRecord(line: string): RolloutRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.ts !== 'number' || !Number.isFinite(value.ts)) return undefined;
  if (value.type === 'session_meta') {
    const meta = threadMeta(value.meta);
    return meta && { type: 'session_meta', ts: value.ts, meta };
  }
  return wellFormed(value) ? (value as RolloutRecord) : undefined;
}

export interface History {
  meta: ThreadMeta;
  name: string | null;
  /** The thread's goal, as last set (null: none, or cleared). */
  goal: StoredGoal | null;
  /** When the goal was last set (Unix seconds), for ThreadGoal.updatedAt. */
  goalUpdatedAt: number | null;
  /** The tokens model responses spent since the goal was made (rolled back or not: spent). */
  goalTokens: number;
  turns: Turn[];
  /** The model's view of the remaining turns, compactions applied. */
  modelHistory: ModelEntry[];
  /** Text of the first user message still in the history, for previews. */
  firstUserText: string | null;
  updatedAt: number;
}

/** Folds a thread's records into its history, applying rollback and revert markers. */
export function foldHistory(initialMeta: ThreadMeta, records: Iterable<RolloutRecord>): History {
  let meta = initialMeta;
  let name: string | null = null;
  let goal: StoredGoal | null = null;
  let goalUpdatedAt: number | null = null;
  let goalTokens = 0;
  let turns: Turn[] = [];
  let updatedAt = meta.createdAt;
  const byId = new Map<string, Turn>();
  const startedMs = new Map<string, number>();
  const modelOps = new Map<string, ModelOp[]>();
  /** What was injected before the first turn. */
  const preamble: ModelOp[] = [];
  const opsOf = (turnId: string) => {
    let ops = modelOps.get(turnId);
    if (!ops) modelOps.set(turnId, (ops = []));
    return ops;
  };
  for (const record of records) {
    updatedAt = Math.max(updatedAt, toSeconds(record.ts));
    switch (record.type) {
      case 'turn_started': {
        const turn: Turn = {
          id: record.turnId,
          items: [],
          status: 'inProgress',
          error: null,
          startedAt: toSeconds(record.ts),
          completedAt: null,
          durationMs: null,
        };
        turns.push(turn);
        byId.set(turn.id, turn);
        startedMs.set(turn.id, record.ts);
        break;
      }
      case 'item':
        byId.get(record.turnId)?.items.push(record.item);
        break;
      case 'model':
        if (byId.has(record.turnId)) opsOf(record.turnId).push({ entry: record.entry });
        break;
      case 'compacted':
        if (byId.has(record.turnId)) opsOf(record.turnId).push({ reset: record.replacement });
        break;
      case 'injected': {
        // Belongs with the turn it followed (a rollback of that turn drops it too).
        const after = turns[turns.length - 1];
        for (const entry of record.entries) (after ? opsOf(after.id) : preamble).push({ entry });
        break;
      }
      case 'turn_completed': {
        const turn = byId.get(record.turnId);
        if (!turn) break;
        turn.status = record.status;
        turn.error = record.error ?? null;
        turn.completedAt = toSeconds(record.ts);
        turn.durationMs = Math.max(0, Math.round(record.ts - (startedMs.get(turn.id) ?? record.ts)));
        break;
      }
      case 'name_set':
        name = record.name;
        break;
      case 'goal_set':
        // A new goal (not a patch of the one in force) starts its count afresh.
        if (record.goal?.createdAt !== (goal as StoredGoal | null)?.createdAt) goalTokens = 0;
        goal = record.goal;
        goalUpdatedAt = record.goal ? toSeconds(record.ts) : null;
        break;
      case 'git_info_set':
        meta = { ...meta, gitInfo: record.gitInfo };
        break;
      case 'token_count':
        if (goal) goalTokens += record.usage.totalTokens;
        break;
      case 'rollback':
        turns = turns.slice(0, Math.max(0, turns.length - record.numTurns));
        break;
      case 'revert': {
        const index = turns.findIndex((t) => t.id === record.beforeTurnId);
        if (index >= 0) turns = turns.slice(0, index);
        break;
      }
    }
  }
  const modelHistory = assembleModelHistory(preamble, turns, modelOps);
  return {
    meta,
    name,
    goal,
    goalUpdatedAt,
    goalTokens,
    turns,
    modelHistory,
    firstUserText: firstUserText(turns),
    updatedAt,
  };
}

type ModelOp = { entry: ModelEntry } | { reset: ModelEntry[] };

/** The model's history over the turns that remain: a compaction replaces everything before it. */
function assembleModelHistory(
  preamble: ModelOp[],
  turns: Turn[],
  modelOps: Map<string, ModelOp[]>,
): ModelEntry[] {
  let entries: ModelEntry[] = [];
  for (const ops of [preamble, ...turns.map((turn) => modelOps.get(turn.id) ?? [])]) {
    for (const op of ops) {
      if ('entry' in op) entries.push(op.entry);
      else entries = [...op.reset];
    }
  }
  return entries;
}

export const toSeconds = (ms: number) => Math.floor(ms / 1000);

/** The text a user message carries, or null for other items and text-less messages. */
export function userMessageText(item: ThreadItem): string | null {
  // Items are opaque to the store and may come from a hand-edited file: look before touching.
  if (item.type !== 'userMessage' || !Array.isArray(item.content)) return null;
  const texts: string[] = [];
  for (const part of item.content as unknown[]) {
    if (isObject(part) && part.type === 'text' && isString(part.text)) texts.push(part.text);
  }
  const text = texts.join(' ');
  return text.trim() ? text : null;
}

export function firstUserText(turns: Turn[]): string | null {
  for (const turn of turns) {
    for (const item of turn.items) {
      const text = userMessageText(item);
      if (text) return text;
    }
  }
  return null;
}

const TURN_RECORDS = new Set<RolloutRecord['type']>([
  'turn_started',
  'item',
  'turn_completed',
  'model',
  'compacted',
]);

/** The records that make up the given turns (a fork's copy), in their order, times included. */
export function turnRecordsOf(records: RolloutRecord[], turnIds: ReadonlySet<string>): RolloutRecord[] {
  let after: string | null = null;
  return records.filter((r) => {
    if (r.type === 'turn_started') after = r.turnId;
    // Injected items go with the turn they followed (or before every turn).
    if (r.type === 'injected') return after === null || turnIds.has(after);
    return TURN_RECORDS.has(r.type) && turnIds.has((r as { turnId: string }).turnId);
  });
}
