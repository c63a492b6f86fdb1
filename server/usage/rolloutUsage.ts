// One rollout's token usage: its `token_count` records summed per local day, model and reasoning
// effort, and its longest turn. Only the few record types that matter are parsed; every other line
// is passed over on its first bytes, so a long thread full of command output reads quickly.
import type { Logger } from '../log';
import type { TokenUsage } from '../providers/types';
import { addTokens, isTokenUsage, noTokens } from '../providers/tokenUsage';
import { readLines } from '../threads/rolloutReader';

export interface UsageBucket {
  /** The server's local date, YYYY-MM-DD. */
  day: string;
  model: string;
  effort: string | null;
  tokens: TokenUsage;
}

export interface FileUsage {
  threadId: string;
  buckets: UsageBucket[];
  /** The longest turn with a recorded end, in milliseconds. */
  longestTurnMs: number | null;
  /** When tokens were last recorded (ms since the epoch), or null when never. */
  lastUsedMs: number | null;
}

/** The records usage is made of; every other line is SKIP. */
export type UsageRecord =
  | { type: 'token_count'; ts: number; model: string; effort: string | null; usage: TokenUsage }
  | { type: 'turn_started'; ts: number; turnId: string }
  | { type: 'turn_completed'; ts: number; turnId: string }
  | typeof SKIP;

const SKIP = { type: 'skip' } as const;
// Records are written type first (turnJournal.ts), so their opening bytes name them.
const WANTED = /^\{"type":"(token_count|turn_started|turn_completed)"/;

function parseRelevant(line: string): UsageRecord | undefined {
  if (!WANTED.test(line)) return SKIP;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof value.ts !== 'number' || !Number.isFinite(value.ts)) return undefined;
  if (value.type === 'token_count') {
    const { model, effort, usage } = value;
    const ok =
      typeof model === 'string' && (effort === null || typeof effort === 'string') && isTokenUsage(usage);
    return ok ? (value as UsageRecord) : undefined;
  }
  return typeof value.turnId === 'string' ? (value as UsageRecord) : undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The server's local calendar day of a time, as YYYY-MM-DD. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Folds a rollout's usage records; pure, so the index and the tests share it. */
export function foldUsage(threadId: string, records: Iterable<UsageRecord>): FileUsage {
  const buckets = new Map<string, UsageBucket>();
  const started = new Map<string, number>();
  let longestTurnMs: number | null = null;
  let lastUsedMs: number | null = null;
  for (const record of records) {
    if (record.type === 'skip') continue;
    if (record.type === 'turn_started') started.set(record.turnId, record.ts);
    else if (record.type === 'turn_completed') {
      const from = started.get(record.turnId);
      if (from !== undefined) longestTurnMs = Math.max(longestTurnMs ?? 0, record.ts - from);
    } else {
      const day = localDay(record.ts);
      const key = JSON.stringify([day, record.model, record.effort]);
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { day, model: record.model, effort: record.effort, tokens: noTokens() };
        buckets.set(key, bucket);
      }
      addTokens(bucket.tokens, record.usage);
      lastUsedMs = Math.max(lastUsedMs ?? 0, record.ts);
    }
  }
  return { threadId, buckets: [...buckets.values()], longestTurnMs, lastUsedMs };
}

/** Reads one rollout's usage; lines that cannot be read are logged and skipped by the reader. */
export async function readFileUsage(threadId: string, path: string, log: Logger): Promise<FileUsage> {
  const { records } = await readLines(path, log, parseRelevant);
  return foldUsage(threadId, records);
}
