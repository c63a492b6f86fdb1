// Records a running turn in its thread's rollout, one append per event, in the order they happen
// (the store queues appends per thread).
import type { ThreadItem } from '../protocol/items';
import type { TurnError, TurnStatus } from '../protocol/thread';
import type { TokenUsage } from '../providers/types';
import type { ModelEntry } from './records';
import type { ThreadStore } from './threadStore';

export function turnJournal(store: ThreadStore, threadId: string) {
  const append = async (...records: Parameters<ThreadStore['append']>[1]) => {
    await store.append(threadId, records);
  };
  return {
    turnStarted: (turnId: string, ts: number) => append({ type: 'turn_started', ts, turnId }),
    itemCompleted: (turnId: string, item: ThreadItem, ts: number) =>
      append({ type: 'item', ts, turnId, item }),
    modelEntries: (turnId: string, entries: ModelEntry[]) => {
      const ts = Date.now();
      return append(...entries.map((entry) => ({ type: 'model' as const, ts, turnId, entry })));
    },
    tokensUsed: (turnId: string, model: string, effort: string | null, usage: TokenUsage) =>
      append({ type: 'token_count', ts: Date.now(), turnId, model, effort, usage }),
    compacted: (turnId: string, replacement: ModelEntry[]) =>
      append({ type: 'compacted', ts: Date.now(), turnId, replacement }),
    turnCompleted: (turnId: string, status: TurnStatus, error: TurnError | null, ts: number) =>
      append({ type: 'turn_completed', ts, turnId, status, error }),
    oweTurnCompleted: (turnId: string, status: TurnStatus, error: TurnError | null, ts: number) =>
      store.owe(threadId, [{ type: 'turn_completed', ts, turnId, status, error }]),
  };
}
