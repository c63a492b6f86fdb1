// The webview's store: takes host messages, checks their sequence numbers, applies deltas through the
// pure reducer at most once per frame, and tells subscribers what changed — item subscribers only
// when their own item changed, view subscribers only when something other than item content did.
import { Emitter } from '../common/emitter';
import type { IDisposable } from '../common/lifecycle';
import type { HostMessage, ProtocolNotification, StartInfo } from '../messages';
import { noPrompts, reducePrompts, type PromptAction, type PromptState } from './prompts';
import { fromSnapshot, prependItems, prependTurns, reduceAll } from './reducer';
import { emptyState, type ConversationState } from './state';
import { initialViewStatus, reduceViewStatus, type ViewStatus } from './viewStatus';

/** Text for the composer from elsewhere in the page: an example prompt, or a message to edit and resend. */
export interface ComposerFill {
  text: string;
  /** Edit and resend: sending replaces this turn (the thread's last) instead of adding one. */
  editTurnId?: string;
}

export interface StoreOptions {
  /** Runs `flush` later (once per animation frame in the page; by hand in tests). */
  schedule: (flush: () => void) => void;
  /** Asks the host for a fresh snapshot: deltas were lost. */
  requestResync: (threadId: string) => void;
  /** The page showed a thread before it was reloaded: it loads until the host sends it (viewStatus.ts). */
  expectsThread?: boolean;
}

/** While waiting for a resync, deltas beyond this many are dropped: the snapshot covers them. */
const maxPending = 20_000;

export class ConversationStore {
  private state: ConversationState = emptyState;
  private threadId: string | null = null;
  private lastSeq = 0;
  private readonly pending = new Map<number, ProtocolNotification>();
  private scheduled = false;
  private awaitingResync = false;
  private readonly viewChanged = new Emitter<void>();
  /** One emitter per item someone watches, dropped when its last listener goes. */
  private readonly itemChanged = new Map<string, Emitter<void>>();
  private prompts: PromptState = noPrompts;
  private readonly promptsChanged = new Emitter<void>();
  /** Why the view is empty, when no thread is shown. */
  emptyReason: string | undefined;
  /** With no thread shown: the recent threads and a new thread's settings (once the host sent them). */
  start: StartInfo | undefined;
  /** The window is in Restricted Mode (from the host's view context). */
  restricted = false;
  /** The server can list and undo each turn's file changes (from the host's view context). */
  turnChanges = false;
  /** A turn to scroll to (a search result picked), until the list has done so. */
  revealTurnId: string | null = null;
  /** Loading, the start view or a thread, and the server's failure (see viewStatus.ts). */
  viewStatus: ViewStatus;
  private readonly filled = new Emitter<ComposerFill>();
  /** The composer listens: text to put in place of its draft. */
  readonly onComposerFill = this.filled.event;

  constructor(private readonly options: StoreOptions) {
    this.viewStatus = initialViewStatus(options.expectsThread === true);
  }

  getState = (): ConversationState => this.state;

  /** For anything but item content: rows, turns, the thread, usage. */
  subscribe = (listener: () => void): (() => void) => unsubscriber(this.viewChanged.event(listener));

  subscribeItem(key: string, listener: () => void): () => void {
    let emitter = this.itemChanged.get(key);
    if (!emitter) {
      const created = new Emitter<void>({ onDidRemoveLastListener: () => this.itemChanged.delete(key) });
      this.itemChanged.set(key, (emitter = created));
    }
    return unsubscriber(emitter.event(listener));
  }

  getPrompts = (): PromptState => this.prompts;

  /** For the prompts (approvals, questions) of the shown thread. */
  subscribePrompts = (listener: () => void): (() => void) =>
    unsubscriber(this.promptsChanged.event(listener));

  /** Prompt changes made in the page itself: an answer given here, an outcome shown long enough. */
  dispatchPrompts(action: PromptAction): void {
    const next = reducePrompts(this.prompts, action);
    if (next === this.prompts) return;
    this.prompts = next;
    this.promptsChanged.fire();
  }

  /** Puts text into the composer (it replaces the draft there, and the composer takes the focus). */
  fillComposer(fill: ComposerFill): void {
    this.filled.fire(fill);
  }

  receive(message: HostMessage): void {
    const status = reduceViewStatus(this.viewStatus, message);
    this.route(message);
    // After the state it goes with, so no reader sees a thread phase without the thread.
    if (status === this.viewStatus) return;
    this.viewStatus = status;
    this.viewChanged.fire();
  }

  private route(message: HostMessage): void {
    switch (message.type) {
      case 'prompts':
      case 'promptSettled':
        return this.dispatchPrompts(message);
      case 'snapshot':
        this.dispatchPrompts({ type: 'thread', threadId: message.snapshot.thread.id });
        this.threadId = message.snapshot.thread.id;
        this.lastSeq = message.seq;
        this.awaitingResync = false;
        for (const seq of this.pending.keys()) if (seq <= message.seq) this.pending.delete(seq);
        this.emptyReason = undefined;
        this.start = undefined;
        this.restricted = message.context.restricted;
        this.turnChanges = message.context.turnChanges === true;
        this.commit(fromSnapshot(message.snapshot));
        this.flush();
        return;
      case 'empty':
        this.dispatchPrompts({ type: 'thread', threadId: null });
        this.threadId = null;
        this.pending.clear();
        this.emptyReason = message.reason;
        this.start = message.start;
        this.restricted = message.context.restricted;
        this.commit(emptyState);
        // `start` and `emptyReason` live beside the state: their readers are told here.
        this.viewChanged.fire();
        return;
      case 'delta':
        if (message.threadId !== this.threadId || message.seq <= this.lastSeq) return; // stale or duplicate
        if (this.pending.size >= maxPending) return;
        this.pending.set(message.seq, message.notification);
        this.scheduleFlush();
        return;
      case 'revealTurn':
        if (message.threadId !== this.threadId) return;
        this.revealTurnId = message.turnId;
        this.viewChanged.fire();
        return;
      case 'olderTurns':
        if (message.threadId !== this.threadId) return;
        this.commit(prependTurns(this.state, message.turns, message.hasOlderTurns, message.earlierItems));
        return;
      case 'earlierItems':
        if (message.threadId !== this.threadId) return;
        this.commit(prependItems(this.state, message.turnId, message.items, message.hasEarlierItems));
        return;
      default:
        return;
    }
  }

  private scheduleFlush(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.options.schedule(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Applies every delta that follows the last one applied; a gap left over means a lost message. */
  private flush(): void {
    const batch: ProtocolNotification[] = [];
    for (let next = this.lastSeq + 1; this.pending.has(next); next++) {
      batch.push(this.pending.get(next)!);
      this.pending.delete(next);
      this.lastSeq = next;
    }
    const state = batch.length ? reduceAll(this.state, batch) : this.state;
    if (this.pending.size > 0 && !this.awaitingResync && this.threadId) {
      this.awaitingResync = true;
      this.options.requestResync(this.threadId);
    }
    this.commit(state);
  }

  private commit(next: ConversationState): void {
    const previous = this.state;
    if (next === previous) return;
    this.state = next;
    if (next.items !== previous.items) {
      for (const [key, emitter] of [...this.itemChanged]) {
        if (next.items[key] !== previous.items[key]) emitter.fire();
      }
    }
    if (viewChanged(previous, next)) this.viewChanged.fire();
  }
}

/** React's useSyncExternalStore takes an unsubscribe function, not a disposable. */
function unsubscriber(subscription: IDisposable): () => void {
  return () => subscription.dispose();
}

function viewChanged(a: ConversationState, b: ConversationState): boolean {
  return (Object.keys(b) as (keyof ConversationState)[]).some((key) => key !== 'items' && a[key] !== b[key]);
}
