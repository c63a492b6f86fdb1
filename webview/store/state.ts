// The conversation as the webview holds it: normalized so one streaming item changes one record.
// Items are keyed by turn and item id (`itemKey`), turns by id, and `rows` is the flat list the
// virtualized view renders; it changes only when a turn or an item is added, never on a text delta.
import type { ThreadItem } from '../../server/protocol/items';
import type { NotificationParamsOf } from '../../server/protocol/methods';
import type { Thread, TurnError, TurnStatus } from '../../server/protocol/thread';
import type { ThreadSettings } from '../messages';
import type { ThreadGoal } from '../../server/protocol/threadGoal';
import type { HookRunSummary } from '../../server/protocol/hooks';

/** An item of a type this build does not know yet (rendered by the generic card). */
export type UnknownItem = { type: string; id: string; [field: string]: unknown };
/** A known item (narrow with isThreadItem), or one of a newer protocol. */
export type AnyItem = ThreadItem | UnknownItem;

export type PlanStep = NotificationParamsOf<'turn/plan/updated'>['plan'][number];
export type TokenUsage = NotificationParamsOf<'thread/tokenUsage/updated'>['tokenUsage'];
export type TokenBreakdown = TokenUsage['total'];

export interface TurnView {
  id: string;
  status: TurnStatus;
  error: TurnError | null;
  /** A retryable error the server is retrying (`error` with willRetry). */
  retrying: string | null;
  startedAt: number | null;
  completedAt: number | null;
  durationMs: number | null;
  itemKeys: string[];
  /** The unified diff of everything this turn changed (turn/diff/updated). */
  diff: string | null;
  plan: { explanation: string | null; steps: PlanStep[] } | null;
  usage: TokenBreakdown | null;
  /** The turn's first items were not sent (a long turn): `loadEarlierItems` pages them in. */
  earlierItems: boolean;
}

/**
 * A turn's header, the offer of its earlier items (a long turn), one of its items, or — after its items —
 * the error a failed turn ended with.
 */
export type Row = { kind: 'turn' | 'earlierItems' | 'item' | 'turnError'; key: string; turnId: string };

export interface ConversationState {
  thread: Omit<Thread, 'turns'> | null;
  settings: ThreadSettings | null;
  turnIds: string[];
  turns: Record<string, TurnView>;
  items: Record<string, AnyItem>;
  /** Live progress lines of items that have no field for them (MCP tool progress). */
  progress: Record<string, string>;
  rows: Row[];
  tokenUsage: TokenUsage | null;
  hasOlderTurns: boolean;
  /** The thread's goal, shown in the header. */
  goal: ThreadGoal | null;
}

export const emptyState: ConversationState = {
  thread: null,
  settings: null,
  turnIds: [],
  turns: {},
  items: {},
  progress: {},
  rows: [],
  tokenUsage: null,
  hasOlderTurns: false,
  goal: null,
};

/** A hook's run in its turn: a row of the view, not an item of the thread (the server keeps none). */
export const HOOK_RUN_TYPE = 'hookRun';

export function hookRunItem(run: HookRunSummary): UnknownItem {
  return { type: HOOK_RUN_TYPE, id: `hook-${run.id}`, run };
}

export function itemKey(turnId: string, itemId: string): string {
  return `${turnId}/${itemId}`;
}

export function turnRowKey(turnId: string): string {
  return `turn:${turnId}`;
}

export function earlierItemsRowKey(turnId: string): string {
  return `earlier:${turnId}`;
}

export function turnErrorRowKey(turnId: string): string {
  return `turnError:${turnId}`;
}

/** A failed turn shows its error under what the user asked, not above it. */
export function endsInError(turn: TurnView | undefined): boolean {
  return turn?.status === 'failed' && turn.error !== null;
}
