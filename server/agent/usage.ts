// A thread's token usage: the last response's and the running total, as clients are told them.
import type { TokenUsage } from '../providers/types';
import type { TurnEmitter } from './turnEmitter';

const ZERO: TokenUsage = {
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
  totalTokens: 0,
};

export class UsageTotals {
  private total: TokenUsage = { ...ZERO };
  /** The size of the context the model last saw: input plus what it wrote. */
  lastContextTokens = 0;

  record(last: TokenUsage, contextWindow: number | null, emit: TurnEmitter): void {
    const total = { ...this.total };
    for (const key of Object.keys(ZERO) as (keyof TokenUsage)[]) total[key] += last[key];
    this.total = total;
    this.lastContextTokens = last.inputTokens + last.outputTokens;
    emit.turnEvent('thread/tokenUsage/updated', {
      tokenUsage: { total, last: { ...last }, modelContextWindow: contextWindow },
    });
  }
}
