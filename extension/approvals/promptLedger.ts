// The bookkeeping of the server requests the user has to answer: which are waiting, in arrival order,
// and how each one ended. A prompt ends exactly once: answered here (the first answer wins), resolved by
// the server, or dropped because its turn or its server is gone. No `vscode` import, so it is unit-tested
// in plain Node; PendingApprovals wires it to the editor.
import type { PromptOutcome } from '../../webview/messages';

export interface LedgerPrompt {
  key: string;
  threadId: string;
  turnId: string;
}

export type { PromptOutcome };

export type LedgerChange<P> = { added?: P; settled?: { prompt: P; outcome: PromptOutcome } };

export class PromptLedger<P extends LedgerPrompt> {
  private readonly waiting = new Map<
    string,
    { prompt: P; outcome: Promise<PromptOutcome>; settle: (outcome: PromptOutcome) => void }
  >();

  constructor(private readonly changed: (change: LedgerChange<P>) => void) {}

  /**
   * Records a prompt; resolves with how it ended. The same request asked again is the same prompt:
   * codex sends a thread's waiting requests again, with their ids, when a client resumes the thread.
   * Another prompt under a waiting key is a caller bug.
   */
  add(prompt: P): Promise<PromptOutcome> {
    const waiting = this.waiting.get(prompt.key);
    if (waiting?.prompt.threadId === prompt.threadId && waiting.prompt.turnId === prompt.turnId)
      return waiting.outcome;
    if (waiting) throw new Error(`prompt ${prompt.key} is already waiting`);
    let settle: (outcome: PromptOutcome) => void = () => {};
    const outcome = new Promise<PromptOutcome>((resolve) => (settle = resolve));
    this.waiting.set(prompt.key, { prompt, outcome, settle });
    this.changed({ added: prompt });
    return outcome;
  }

  /** Waiting prompts, oldest first (a Map keeps insertion order). */
  list(threadId?: string): P[] {
    const all = [...this.waiting.values()].map((entry) => entry.prompt);
    return threadId === undefined ? all : all.filter((prompt) => prompt.threadId === threadId);
  }

  get(key: string): P | undefined {
    return this.waiting.get(key)?.prompt;
  }

  /** Ends a prompt; false when it had already ended (or never existed). */
  settle(key: string, outcome: PromptOutcome): boolean {
    const entry = this.waiting.get(key);
    if (!entry) return false;
    this.waiting.delete(key);
    entry.settle(outcome);
    this.changed({ settled: { prompt: entry.prompt, outcome } });
    return true;
  }

  /** Ends every prompt of a turn that is over: nobody can answer them any more. */
  settleTurn(threadId: string, turnId: string, reason: string): void {
    for (const prompt of this.list(threadId))
      if (prompt.turnId === turnId) this.settle(prompt.key, { cancelled: reason });
  }

  /** Ends every prompt (the server that asked is gone). */
  settleAll(reason: string): void {
    for (const prompt of this.list()) this.settle(prompt.key, { cancelled: reason });
  }
}
