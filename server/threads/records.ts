// The rollout format: one JSON record per line, append-only. The first line describes the thread;
// later lines record turns, items, renames and history markers. Reading folds them into turns.
//
// Every `ts` is milliseconds since the epoch; the protocol's seconds are derived when reading.
//
//   {"type":"session_meta","ts":…,"meta":{id, createdAt (s), cwd, modelProvider, model, source, …}}
//   {"type":"turn_started","ts":…,"turnId":"…"}
//   {"type":"item","ts":…,"turnId":"…","item":{…ThreadItem}}
//   {"type":"turn_completed","ts":…,"turnId":"…","status":"completed","error":null}
//   {"type":"name_set","ts":…,"name":"…"|null}
//   {"type":"rollback","ts":…,"numTurns":N}          drop the last N turns
//   {"type":"revert","ts":…,"beforeTurnId":"…"}      drop that turn and every later one
import type { ThreadItem } from '../protocol/items';
import type { GitInfo, SessionSource, Turn, TurnError, TurnStatus } from '../protocol/thread';

export interface ThreadMeta {
  id: string;
  createdAt: number;
  cwd: string;
  modelProvider: string;
  model: string | null;
  source: SessionSource;
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
  | { type: 'revert'; ts: number; beforeTurnId: string };

const recordTypes = new Set([
  'session_meta',
  'turn_started',
  'item',
  'turn_completed',
  'name_set',
  'rollback',
  'revert',
]);

/** Parses one line; undefined for anything that is not a record we understand. */
export function parseRecord(line: string): RolloutRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' && recordTypes.has(type) ? (value as RolloutRecord) : undefined;
}

export interface History {
  meta: ThreadMeta;
  name: string | null;
  turns: Turn[];
  /** Text of the first user message still in the history, for previews. */
  firstUserText: string | null;
  updatedAt: number;
}

/** Folds a thread's records into its history, applying rollback and revert markers. */
export function foldHistory(meta: ThreadMeta, records: Iterable<RolloutRecord>): History {
  let name: string | null = null;
  let turns: Turn[] = [];
  let updatedAt = meta.createdAt;
  const byId = new Map<string, Turn>();
  const startedMs = new Map<string, number>();
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
      case 'turn_completed': {
        const turn = byId.get(record.turnId);
        if (!turn) break;
        turn.status = record.status;
        turn.error = record.error;
        turn.completedAt = toSeconds(record.ts);
        turn.durationMs = Math.max(0, Math.round(record.ts - (startedMs.get(turn.id) ?? record.ts)));
        break;
      }
      case 'name_set':
        name = record.name;
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
  return { meta, name, turns, firstUserText: firstUserText(turns), updatedAt };
}

export const toSeconds = (ms: number) => Math.floor(ms / 1000);

/** The text a user message carries, or null for other items and text-less messages. */
export function userMessageText(item: ThreadItem): string | null {
  if (item.type !== 'userMessage') return null;
  const text = item.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join(' ');
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
