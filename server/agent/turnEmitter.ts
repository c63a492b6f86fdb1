// Everything a turn tells the outside world goes through here: notifications to the thread's
// subscribers, and the journal that persists items and model entries as they complete. A journal
// write that fails (a full disk, a read-only home) fails the turn, never the telling: the turn is
// still announced and ended, failed, with what could not be saved and why.
import type { ThreadItem } from '../protocol/items';
import type { NotificationMethod, NotificationParamsOf } from '../protocol/methods';
import type { Turn, TurnError, TurnStatus } from '../protocol/thread';
import type { ConversationEntry, TokenUsage } from '../providers/types';
import { TurnNotSavedError, toTurnError } from './turnError';

export interface Notifier {
  notify<N extends NotificationMethod>(method: N, params: NotificationParamsOf<N>): void;
}

/** Persists a turn as it happens, so a crash loses at most the item in flight. */
export interface TurnJournal {
  turnStarted(turnId: string, ts: number): Promise<void>;
  itemCompleted(turnId: string, item: ThreadItem, ts: number): Promise<void>;
  modelEntries(turnId: string, entries: ConversationEntry[]): Promise<void>;
  compacted(turnId: string, replacement: ConversationEntry[]): Promise<void>;
  /** One model response's tokens, for account/usage/read (server/usage). */
  tokensUsed(turnId: string, model: string, effort: string | null, usage: TokenUsage): Promise<void>;
  turnCompleted(turnId: string, status: TurnStatus, error: TurnError | null, ts: number): Promise<void>;
  /** The turn's end, to be written before the thread's next record (this turn's writes failed). */
  oweTurnCompleted(turnId: string, status: TurnStatus, error: TurnError | null, ts: number): void;
}

type ItemEvent = Exclude<Extract<NotificationMethod, `item/${string}`>, 'item/started' | 'item/completed'>;
type DeltaParams<N extends ItemEvent> = Omit<NotificationParamsOf<N>, 'threadId' | 'turnId'>;

export class TurnEmitter {
  readonly startedAtMs = Date.now();
  /** The first journal write that failed: later ones are skipped, so the rollout has no turn with holes. */
  private notSaved: TurnNotSavedError | undefined;
  /** Whether the turn's start is in the rollout (then its end must be too). */
  private startSaved = false;

  constructor(
    readonly threadId: string,
    readonly turnId: string,
    private readonly notifier: Notifier,
    private readonly journal: TurnJournal,
  ) {}

  /** A notification that carries this turn's ids. */
  turnEvent<N extends NotificationMethod>(
    method: N,
    params: Omit<NotificationParamsOf<N>, 'threadId' | 'turnId'>,
  ): void {
    // Omit<P, ids> plus the ids is P, which the compiler cannot see through a generic N.
    const full = { threadId: this.threadId, turnId: this.turnId, ...params } as NotificationParamsOf<N>;
    this.notifier.notify(method, full);
  }

  threadEvent<N extends NotificationMethod>(method: N, params: NotificationParamsOf<N>): void {
    this.notifier.notify(method, params);
  }

  itemDelta<N extends ItemEvent>(method: N, params: DeltaParams<N>): void {
    this.turnEvent(method, params);
  }

  itemStarted(item: ThreadItem): void {
    this.turnEvent('item/started', { item, startedAtMs: Date.now() });
  }

  async itemCompleted(item: ThreadItem): Promise<void> {
    const now = Date.now();
    this.turnEvent('item/completed', { item, completedAtMs: now });
    await this.save(() => this.journal.itemCompleted(this.turnId, item, now));
  }

  modelEntries(entries: ConversationEntry[]): Promise<void> {
    return entries.length
      ? this.save(() => this.journal.modelEntries(this.turnId, entries))
      : Promise.resolve();
  }

  tokensUsed(model: string, effort: string | null, usage: TokenUsage): Promise<void> {
    return this.save(() => this.journal.tokensUsed(this.turnId, model, effort, usage));
  }

  compacted(replacement: ConversationEntry[]): Promise<void> {
    return this.save(() => this.journal.compacted(this.turnId, replacement));
  }

  /** Records and announces the start; a start that cannot be recorded is announced, then thrown. */
  async started(): Promise<Turn> {
    await this.save(() => this.journal.turnStarted(this.turnId, this.startedAtMs)).catch(() => {});
    this.startSaved = !this.notSaved;
    const turn = this.turn('inProgress', null, null);
    this.threadEvent('turn/started', { threadId: this.threadId, turn });
    if (this.notSaved) throw this.notSaved;
    return turn;
  }

  /**
   * Records the end, runs `beforeAnnouncing` (the thread goes idle), then tells the clients. A turn
   * any part of which could not be saved ends failed with that error, whatever else happened.
   */
  async completed(status: TurnStatus, error: TurnError | null, beforeAnnouncing: () => void): Promise<Turn> {
    const now = Date.now();
    if (!this.notSaved) {
      await this.save(() => this.journal.turnCompleted(this.turnId, status, error, now)).catch(() => {});
    }
    if (this.notSaved) {
      const unsaved = toTurnError(this.notSaved);
      // The loop reports the failure that stopped it; one found only now is reported here.
      if (error?.message !== unsaved.message) this.turnEvent('error', { error: unsaved, willRetry: false });
      [status, error] = ['failed', unsaved];
      if (this.startSaved) this.journal.oweTurnCompleted(this.turnId, status, error, now);
    }
    beforeAnnouncing();
    const turn = this.turn(status, error, now);
    this.threadEvent('turn/completed', { threadId: this.threadId, turn });
    return turn;
  }

  /** Runs a journal write unless one failed before; a failure is kept and thrown as TurnNotSavedError. */
  private async save(write: () => Promise<void>): Promise<void> {
    if (this.notSaved) throw this.notSaved;
    try {
      await write();
    } catch (error) {
      this.notSaved = new TurnNotSavedError(error);
      throw this.notSaved;
    }
  }

  /** The turn as notifications carry it: items travel separately, in item events. */
  turn(status: TurnStatus, error: TurnError | null, completedAtMs: number | null): Turn {
    return {
      id: this.turnId,
      items: [],
      status,
      error,
      startedAt: Math.floor(this.startedAtMs / 1000),
      completedAt: completedAtMs === null ? null : Math.floor(completedAtMs / 1000),
      durationMs: completedAtMs === null ? null : completedAtMs - this.startedAtMs,
    };
  }
}
