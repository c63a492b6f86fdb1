// Reading the reference server's rollout format (Codex 0.169 and older) into our own records, so
// folding, reading and forking work on a Codex thread as on ours. A Codex rollout is one JSON
// object per line, {timestamp (ISO), type, payload, ordinal?}:
//
//   session_meta   the thread: id, timestamp, cwd, originator, cli_version, source, model_provider,
//                  git, forked_from_id; a fork written by 0.169 names the lines it shares with its
//                  parent in history_base {thread_id, end_ordinal_exclusive} instead of copying them
//   event_msg      what the user saw: task_started / task_complete / turn_aborted / error (a turn's
//                  bounds), item_completed (a turn item), user_message / agent_message (older files,
//                  before turn items), thread_name_updated, thread_rolled_back
//   response_item  what the model saw or said (Responses API items)
//   turn_context   the settings of a turn (its model)
//   compacted      the model's history replaced by a summary (replacement_history)
//
// Other lines (world_state, token counts, settings) do not change what a reader shows. A line that
// does not parse is skipped; the first line must be the session_meta.
import type { GitInfo, SessionSource } from '../protocol/thread';
import { codexModelEntry, codexTurnItem, isObject, str } from './codexItems';
import { toSeconds, type ModelEntry, type RolloutRecord, type ThreadMeta } from './records';

/** The lines of a parent rollout that a fork shares (ordinals below the end). */
export interface HistoryBase {
  threadId: string;
  endOrdinal: number;
}

export interface CodexRecords {
  meta: ThreadMeta;
  historyBase: HistoryBase | null;
  records: RolloutRecord[];
}

const SOURCES = new Set(['cli', 'vscode', 'exec', 'unknown']);

function sessionSource(value: unknown): SessionSource {
  if (typeof value === 'string') {
    if (SOURCES.has(value)) return value as SessionSource;
    if (value === 'mcp' || value === 'app_server') return 'appServer';
    return { custom: value };
  }
  // Sub-agents ({subagent: …}) are not interactive threads: listed only when asked for.
  return 'unknown';
}

function gitInfo(value: unknown): GitInfo | null {
  if (!isObject(value)) return null;
  return {
    sha: str(value.commit_hash) ?? null,
    branch: str(value.branch) ?? null,
    originUrl: str(value.repository_url) ?? null,
  };
}

function threadMeta(payload: Record<string, unknown>, ts: number): ThreadMeta | undefined {
  const id = str(payload.id);
  if (!id) return undefined;
  const created = Date.parse(str(payload.timestamp) ?? '');
  return {
    id,
    createdAt: toSeconds(Number.isFinite(created) ? created : ts),
    cwd: str(payload.cwd) ?? '',
    modelProvider: str(payload.model_provider) ?? 'openai',
    model: null,
    source: sessionSource(payload.source),
    originator: str(payload.originator) ?? null,
    cliVersion: str(payload.cli_version) ?? '',
    forkedFromId: str(payload.forked_from_id) ?? null,
    gitInfo: gitInfo(payload.git),
  };
}

export function historyBase(payload: Record<string, unknown>): HistoryBase | null {
  const base = payload.history_base;
  if (!isObject(base)) return null;
  const threadId = str(base.thread_id);
  const end = base.end_ordinal_exclusive;
  return threadId && typeof end === 'number' ? { threadId, endOrdinal: end } : null;
}

export interface CodexLine {
  ts: number;
  type: string;
  payload: Record<string, unknown>;
  ordinal: number | null;
}

/** One line of a Codex rollout, or undefined when it is not one. */
export function parseCodexLine(text: string): CodexLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.type !== 'string' || !isObject(value.payload)) return undefined;
  const ts = Date.parse(str(value.timestamp) ?? '');
  if (!Number.isFinite(ts)) return undefined;
  const ordinal = typeof value.ordinal === 'number' ? value.ordinal : null;
  return { ts, type: value.type, payload: value.payload, ordinal };
}

/**
 * Turns Codex lines into our records, one line at a time. Turns are bounded by task_started and
 * task_complete / turn_aborted; lines outside any turn (older files had no task events) open one.
 */
export class CodexTranslator {
  meta: ThreadMeta | undefined;
  historyBase: HistoryBase | null = null;
  readonly records: RolloutRecord[] = [];
  /** A user message was seen: enough for a listing's preview. */
  sawUserMessage = false;
  private turn: string | null = null;
  private readonly ended = new Set<string>();
  /** Whether item_completed events exist: then the older user_message/agent_message events repeat them. */
  private turnItems = false;
  private synthetic = 0;

  /** Takes one line; false when the file is not a Codex rollout (its first line is no session_meta). */
  take(line: CodexLine): boolean {
    if (!this.meta) {
      if (line.type !== 'session_meta') return false;
      this.meta = threadMeta(line.payload, line.ts);
      this.historyBase = historyBase(line.payload);
      return this.meta !== undefined;
    }
    const { payload, ts } = line;
    switch (line.type) {
      case 'event_msg':
        this.event(payload, ts);
        break;
      case 'response_item': {
        const entry = codexModelEntry(payload);
        if (entry) this.push({ type: 'model', ts, turnId: this.open(ts), entry });
        break;
      }
      case 'compacted': {
        const replacement: ModelEntry[] = Array.isArray(payload.replacement_history)
          ? payload.replacement_history.flatMap((item) => codexModelEntry(item) ?? [])
          : [{ kind: 'user', content: [{ type: 'text', text: str(payload.message) ?? '' }] }];
        this.push({ type: 'compacted', ts, turnId: this.open(ts), replacement });
        break;
      }
      case 'turn_context': {
        const model = str(payload.model);
        if (model) this.meta.model = model;
        break;
      }
    }
    return true;
  }

  private event(payload: Record<string, unknown>, ts: number): void {
    const turnId = str(payload.turn_id);
    switch (payload.type) {
      case 'task_started':
        this.close(ts, 'interrupted');
        this.start(turnId ?? this.newTurnId(), ts);
        break;
      case 'task_complete':
        this.close(ts, 'completed', turnId);
        break;
      case 'turn_aborted':
        this.close(ts, 'interrupted', turnId);
        break;
      case 'error':
        this.close(ts, 'failed', turnId, str(payload.message) ?? 'The turn failed.');
        break;
      case 'item_completed': {
        const item = codexTurnItem(payload.item);
        if (!item) break;
        if (!this.turnItems) this.dropOlderItems();
        this.turnItems = true;
        this.sawUserMessage ||= item.type === 'userMessage';
        this.push({ type: 'item', ts, turnId: turnId && this.isOpen(turnId) ? turnId : this.open(ts), item });
        break;
      }
      case 'user_message':
      case 'agent_message': {
        const text = str(payload.message);
        if (this.turnItems || text === undefined) break;
        const user = payload.type === 'user_message';
        // Older files had no task events: a message opens a turn when none is open.
        const id = this.open(ts);
        const itemId = `${id}-${this.records.length}`;
        this.sawUserMessage ||= user;
        this.push({
          type: 'item',
          ts,
          turnId: id,
          item: user
            ? { type: 'userMessage', id: itemId, content: [{ type: 'text', text }] }
            : { type: 'agentMessage', id: itemId, text, phase: null },
        });
        break;
      }
      case 'thread_name_updated': {
        const name = str(payload.thread_name);
        this.push({ type: 'name_set', ts, name: name?.trim() || null });
        break;
      }
      case 'thread_rolled_back': {
        const numTurns = payload.num_turns;
        if (typeof numTurns === 'number' && Number.isInteger(numTurns) && numTurns >= 0) {
          this.push({ type: 'rollback', ts, numTurns });
        }
        break;
      }
    }
  }

  private push(record: RolloutRecord): void {
    this.records.push(record);
  }

  private isOpen(turnId: string): boolean {
    return this.turn === turnId;
  }

  /** The open turn's id, opening one when none is. */
  private open(ts: number): string {
    return this.turn ?? this.start(this.newTurnId(), ts);
  }

  private start(turnId: string, ts: number): string {
    this.turn = turnId;
    this.push({ type: 'turn_started', ts, turnId });
    return turnId;
  }

  private close(
    ts: number,
    status: 'completed' | 'interrupted' | 'failed',
    turnId?: string,
    message?: string,
  ) {
    const id = turnId ?? this.turn;
    if (!id || this.ended.has(id) || (turnId !== undefined && turnId !== this.turn)) return;
    this.ended.add(id);
    this.turn = null;
    const error = message === undefined ? null : { message, codexErrorInfo: null, additionalDetails: null };
    this.push({ type: 'turn_completed', ts, turnId: id, status, error });
  }

  private newTurnId(): string {
    return `${this.meta?.id ?? 'codex'}-turn-${++this.synthetic}`;
  }

  /** The first turn item seen: items made from older events before it would show twice. */
  private dropOlderItems(): void {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const record = this.records[i]!;
      if (record.type === 'item') this.records.splice(i, 1);
    }
  }

  /** The records with the session_meta first and the turn still open (if any) left in progress. */
  result(): CodexRecords | undefined {
    if (!this.meta) return undefined;
    return {
      meta: this.meta,
      historyBase: this.historyBase,
      records: [{ type: 'session_meta', ts: this.meta.createdAt * 1000, meta: this.meta }, ...this.records],
    };
  }
}
