// A turn while it runs: how to stop it, where its events go, and the input steered into it,
// waiting for the next model request.
import type { ConversationEntry } from '../providers/types';
import type { TurnEmitter } from './turnEmitter';

export class ActiveTurn {
  private readonly controller = new AbortController();
  private steered: ConversationEntry[] = [];
  private readonly cleanups = new Set<() => void>();
  /** Settles when the turn has ended and its completion is recorded. */
  done: Promise<unknown> = Promise.resolve();

  constructor(readonly emit: TurnEmitter) {}

  get threadId(): string {
    return this.emit.threadId;
  }

  get turnId(): string {
    return this.emit.turnId;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.controller.signal.aborted;
  }

  steer(entries: ConversationEntry[]): void {
    this.steered.push(...entries);
  }

  hasSteeredInput(): boolean {
    return this.steered.length > 0;
  }

  takeSteeredInput(): ConversationEntry[] {
    const taken = this.steered;
    this.steered = [];
    return taken;
  }

  /** Runs `cleanup` on interrupt (e.g. to resolve a pending server request); returns an unregister. */
  onInterrupt(cleanup: () => void): () => void {
    this.cleanups.add(cleanup);
    return () => this.cleanups.delete(cleanup);
  }

  interrupt(): void {
    if (this.interrupted) return;
    const error = new Error('The turn was interrupted.');
    error.name = 'AbortError';
    this.controller.abort(error);
    for (const cleanup of this.cleanups) cleanup();
    this.cleanups.clear();
  }
}
