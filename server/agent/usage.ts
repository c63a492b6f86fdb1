// A thread's token usage: the last response's and the running total, as clients are told them.
import { addTokens, noTokens } from '../providers/tokenUsage';
import type { TokenUsage } from '../providers/types';
import type { TurnEmitter } from './turnEmitter';

export class UsageTotals {
  private total: TokenUsage = noTokens();
  /** The size of the context the model last saw: input plus what it wrote. */
  lastContextTokens = 0;

  record(last: TokenUsage, contextWindow: number | null, emit: TurnEmitter): void {
    const total = { ...this.total };
    addTokens(total, last);
    this.total = total;
    this.lastContextTokens = last.inputTokens + last.outputTokens;
    emit.turnEvent('thread/tokenUsage/updated', {
      tokenUsage: { total, last: { ...last }, modelContextWindow: contextWindow },
    });
  }
}
