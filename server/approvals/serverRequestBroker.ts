// Sends a thread's server requests to its subscribed clients and waits for the first answer.
// While any request of a thread waits, its status is `active` with the matching `activeFlags`.
// When a request ends (answered, its turn interrupted, or every client that saw it gone) each of
// those clients hears `serverRequest/resolved`; answers after the first are logged and ignored.
import type { ClientAnswer, WaitingFlag } from '../agent/approvalGate';
import type { Logger } from '../log';
import type { Peer } from '../rpc/clientConnection';
import { ClientAnswerError } from '../rpc/outgoingRequests';
import type { LoadedThreads } from '../threads/loadedThreads';

/** Lets the broker clear a request when its turn is interrupted; returns an unregister. */
export type OnInterrupt = (cleanup: () => void) => () => void;

interface Pending {
  flag: WaitingFlag | null;
}

const FLAG_ORDER: WaitingFlag[] = ['waitingOnApproval', 'waitingOnUserInput'];

export class ServerRequestBroker {
  private readonly pending = new Map<string, Set<Pending>>();

  constructor(
    private readonly loaded: LoadedThreads,
    private readonly log: Logger,
  ) {}

  ask(
    threadId: string,
    method: string,
    params: unknown,
    flag: WaitingFlag | null,
    onInterrupt: OnInterrupt,
  ): Promise<ClientAnswer> {
    const peers = this.loaded.subscribers(threadId);
    if (peers.length === 0) {
      return Promise.resolve({
        answered: false,
        reason: 'noClient',
        message: 'no client is connected to this thread to answer',
      });
    }
    const entry: Pending = { flag };
    this.track(threadId, entry, true);
    return new Promise<ClientAnswer>((resolve) => {
      let done = false;
      let failures = 0;
      const sent: { peer: Peer; id: string | number }[] = [];
      const finish = (answer: ClientAnswer) => {
        if (done) return;
        done = true;
        unregister();
        for (const { peer, id } of sent) peer.notify('serverRequest/resolved', { threadId, requestId: id });
        this.track(threadId, entry, false);
        resolve(answer);
      };
      const unregister = onInterrupt(() =>
        finish({ answered: false, reason: 'interrupted', message: 'the turn was interrupted' }),
      );
      for (const peer of peers) {
        const request = peer.request(method, params);
        sent.push({ peer, id: request.id });
        request.result.then(
          (result) => {
            if (done) {
              this.log.info(
                `connection ${peer.id}: ignored a late answer to ${method} ${request.id} on thread ${threadId}`,
              );
            } else {
              finish({ answered: true, result, experimentalApi: peer.experimentalApi });
            }
          },
          (error: Error) => {
            if (done) return;
            this.log.warn(`connection ${peer.id}: ${method} ${request.id}: ${error.message}`);
            // Only when every client that saw the request is gone or refused does it end unanswered.
            if (++failures < sent.length) return;
            finish({
              answered: false,
              reason: error instanceof ClientAnswerError ? 'error' : 'noClient',
              message: error.message,
            });
          },
        );
      }
    });
  }

  /** Whether any request of the thread waits for an answer. */
  isWaiting(threadId: string): boolean {
    return (this.pending.get(threadId)?.size ?? 0) > 0;
  }

  private track(threadId: string, entry: Pending, waiting: boolean): void {
    let set = this.pending.get(threadId);
    if (waiting) {
      if (!set) this.pending.set(threadId, (set = new Set()));
      set.add(entry);
    } else {
      set?.delete(entry);
      if (set?.size === 0) this.pending.delete(threadId);
    }
    // Only a running thread shows flags; one that went idle meanwhile stays idle.
    if (this.loaded.statusOf(threadId).type !== 'active') return;
    const flags = new Set([...(this.pending.get(threadId) ?? [])].map((p) => p.flag));
    this.loaded.setStatus(threadId, {
      type: 'active',
      activeFlags: FLAG_ORDER.filter((f) => flags.has(f)),
    });
  }
}
