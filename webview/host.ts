// The webview's end of the message protocol: posts to the extension, matches responses to requests,
// and hands everything else to the store. `acquireVsCodeApi` is passed in, so tests and the bench can
// stand in for it.
import type {
  HostMessage,
  HostRequestName,
  PersistedState,
  RequestParams,
  RequestResult,
  WebviewMessage,
} from './messages';
import { Emitter } from './common/emitter';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export class Host {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly received = new Emitter<HostMessage>();
  private persisted: PersistedState;

  constructor(
    private readonly api: VsCodeApi,
    target: Pick<Window, 'addEventListener'>,
  ) {
    this.persisted = readPersisted(api.getState());
    target.addEventListener('message', (event) => this.receive((event as MessageEvent).data));
  }

  post(message: WebviewMessage): void {
    this.api.postMessage(message);
  }

  request<N extends HostRequestName>(name: N, params: RequestParams<N>): Promise<RequestResult<N>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.post({ type: 'request', id, name, params } as WebviewMessage);
    });
  }

  /** Subscribes to every message but responses; returns the unsubscribe (React effects' cleanup shape). */
  onMessage(listener: (message: HostMessage) => void): () => void {
    const subscription = this.received.event(listener);
    return () => subscription.dispose();
  }

  get state(): PersistedState {
    return this.persisted;
  }

  /** Merges into the state VS Code keeps for this webview across hide/show and reloads. */
  saveState(change: Partial<PersistedState>): void {
    this.persisted = { ...this.persisted, ...change };
    this.api.setState(this.persisted);
  }

  private receive(data: unknown): void {
    if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string')
      return;
    const message = data as HostMessage;
    if (message.type === 'response') {
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.result);
      return;
    }
    this.received.fire(message);
  }
}

function readPersisted(value: unknown): PersistedState {
  const state = (typeof value === 'object' && value !== null ? value : {}) as Partial<PersistedState>;
  return {
    threadId: typeof state.threadId === 'string' ? state.threadId : undefined,
    drafts: typeof state.drafts === 'object' && state.drafts !== null ? state.drafts : {},
    scroll: typeof state.scroll === 'object' && state.scroll !== null ? state.scroll : {},
    planning: typeof state.planning === 'object' && state.planning !== null ? state.planning : {},
  };
}
