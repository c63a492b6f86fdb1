// Threads held in memory, who is subscribed to each, and their status. Thread-scoped events go
// only to subscribers. When the last subscriber leaves, the thread is unloaded: at once, or after
// `thread_unload_delay_secs` (a client that comes back meanwhile finds it still loaded), and never
// while a turn runs in it (it unloads when it goes idle). What else the server keeps for a loaded
// thread is its `state`, made when it loads and disposed when it unloads.
import type { Peer } from '../rpc/clientConnection';
import type { NotificationMethod, NotificationParamsOf } from '../protocol/methods';
import type { ThreadStatus } from '../protocol/thread';

export interface ThreadState {
  dispose(): void;
}

interface Entry<S> {
  state: S;
  status: ThreadStatus;
  subscribers: Set<Peer>;
  /** The subscriber that left last, told when the thread unloads. */
  lastSubscriber?: Peer;
  unloadTimer?: NodeJS.Timeout;
}

export type UnsubscribeResult = 'unsubscribed' | 'notSubscribed' | 'notLoaded';

const NOT_LOADED: ThreadStatus = { type: 'notLoaded' };

export class LoadedThreads<S extends ThreadState = ThreadState> {
  private readonly threads = new Map<string, Entry<S>>();
  private readonly watchedPeers = new WeakSet<Peer>();
  /** How long a thread with no subscribers stays loaded. */
  unloadDelayMs = 0;

  constructor(private readonly createState: (threadId: string) => S) {}

  ids(): string[] {
    return [...this.threads.keys()];
  }

  /** The state of a loaded thread. */
  get(threadId: string): S | undefined {
    return this.threads.get(threadId)?.state;
  }

  states(): S[] {
    return [...this.threads.values()].map((thread) => thread.state);
  }

  isLoaded(threadId: string): boolean {
    return this.threads.has(threadId);
  }

  statusOf(threadId: string): ThreadStatus {
    return this.threads.get(threadId)?.status ?? NOT_LOADED;
  }

  /** The connections subscribed to a thread: they hear its events and are asked its server requests. */
  subscribers(threadId: string): Peer[] {
    return [...(this.threads.get(threadId)?.subscribers ?? [])];
  }

  /** Loads the thread if needed (idle), subscribes the peer to its events and returns its state. */
  subscribe(threadId: string, peer: Peer): S {
    let thread = this.threads.get(threadId);
    if (!thread) {
      thread = { state: this.createState(threadId), status: { type: 'idle' }, subscribers: new Set() };
      this.threads.set(threadId, thread);
    }
    clearTimeout(thread.unloadTimer);
    thread.unloadTimer = undefined;
    thread.subscribers.add(peer);
    if (!this.watchedPeers.has(peer)) {
      this.watchedPeers.add(peer);
      peer.onClose(() => this.dropPeer(peer));
    }
    return thread.state;
  }

  unsubscribe(threadId: string, peer: Peer): UnsubscribeResult {
    const thread = this.threads.get(threadId);
    if (!thread) return 'notLoaded';
    if (!thread.subscribers.delete(peer)) return 'notSubscribed';
    // The leaving peer was subscribed until now, so it is the one to hear that the thread closed.
    if (thread.subscribers.size === 0) this.scheduleUnload(threadId, thread, peer);
    return 'unsubscribed';
  }

  setStatus(threadId: string, status: ThreadStatus): void {
    const thread = this.threads.get(threadId);
    if (!thread || sameStatus(thread.status, status)) return;
    thread.status = status;
    this.notify(threadId, 'thread/status/changed', { threadId, status });
    if (thread.subscribers.size === 0) this.scheduleUnload(threadId, thread, thread.lastSubscriber);
  }

  /** Sends a thread-scoped event to the thread's subscribers. */
  notify<N extends NotificationMethod>(threadId: string, method: N, params: NotificationParamsOf<N>): void {
    for (const peer of this.threads.get(threadId)?.subscribers ?? []) peer.notify(method, params);
  }

  /** Sends a lifecycle event to the peer that caused it and to the thread's other subscribers. */
  notifyWith<N extends NotificationMethod>(
    origin: Peer,
    threadId: string,
    method: N,
    params: NotificationParamsOf<N>,
  ): void {
    const subscribers = this.threads.get(threadId)?.subscribers;
    if (!subscribers?.has(origin)) origin.notify(method, params);
    this.notify(threadId, method, params);
  }

  /** Forgets a thread entirely (archived): its subscribers are told it closed. */
  unload(threadId: string): void {
    const thread = this.threads.get(threadId);
    if (!thread) return;
    clearTimeout(thread.unloadTimer);
    this.threads.delete(threadId);
    const told = thread.subscribers.size ? thread.subscribers : [thread.lastSubscriber];
    for (const peer of told) {
      peer?.notify('thread/status/changed', { threadId, status: NOT_LOADED });
      peer?.notify('thread/closed', { threadId });
    }
    thread.state.dispose();
  }

  private scheduleUnload(threadId: string, thread: Entry<S>, leaving: Peer | undefined): void {
    thread.lastSubscriber = leaving;
    if (thread.status.type === 'active' || thread.unloadTimer) return;
    if (this.unloadDelayMs <= 0) return this.unload(threadId);
    thread.unloadTimer = setTimeout(() => this.unload(threadId), this.unloadDelayMs);
    thread.unloadTimer.unref();
  }

  private dropPeer(peer: Peer): void {
    for (const [threadId, thread] of this.threads) {
      if (thread.subscribers.delete(peer) && thread.subscribers.size === 0) {
        // A closed connection hears nothing more.
        this.scheduleUnload(threadId, thread, undefined);
      }
    }
  }
}

function sameStatus(a: ThreadStatus, b: ThreadStatus): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
