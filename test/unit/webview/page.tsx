// Renders webview components as the page does — a store, a host over a stand-in for VS Code's webview
// API — and records what the webview posts. Imported only after useDom() has set up the page.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { ReactNode } from 'react';
import { HostContext, StoreContext } from '../../../webview/components/hooks';
import { Host, type VsCodeApi } from '../../../webview/host';
import type { HostMessage, HostRequestName, PersistedState, WebviewMessage } from '../../../webview/messages';
import { ConversationStore } from '../../../webview/store/store';

type Answers = Partial<Record<HostRequestName, (params: never) => unknown>>;

export class Page {
  readonly posted: WebviewMessage[] = [];
  readonly host: Host;
  readonly store: ConversationStore;
  private readonly frames: (() => void)[] = [];
  private root: Root | undefined;
  readonly container: HTMLElement;
  saved: unknown;

  constructor(
    private readonly answers: Answers = {},
    initialState?: Partial<PersistedState>,
  ) {
    this.saved = initialState;
    const api: VsCodeApi = {
      postMessage: (message) => this.onPost(message as WebviewMessage),
      getState: () => this.saved,
      setState: (state) => (this.saved = state),
    };
    this.host = new Host(api, window);
    this.store = new ConversationStore({
      schedule: (flush) => this.frames.push(flush),
      requestResync: (threadId) => this.host.post({ type: 'resync', threadId }),
      expectsThread: this.host.state.threadId !== undefined,
    });
    this.host.onMessage((m) => this.store.receive(m));
    this.container = document.createElement('div');
    document.body.append(this.container);
  }

  async render(node: ReactNode): Promise<void> {
    await act(async () => {
      this.root ??= createRoot(this.container);
      this.root.render(
        <HostContext.Provider value={this.host}>
          <StoreContext.Provider value={this.store}>{node}</StoreContext.Provider>
        </HostContext.Provider>,
      );
    });
  }

  /** A message from the extension, as it arrives in the page. */
  async receive(message: HostMessage): Promise<void> {
    await act(async () => {
      window.dispatchEvent(new window.MessageEvent('message', { data: message }));
    });
  }

  /** Lets timers and frames run until `check` holds (the list positions itself before it shows rows). */
  async until(check: () => boolean, timeoutMs = 5000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > end)
        throw new Error(`timed out; the page is:\n${this.container.innerHTML.slice(0, 2000)}`);
      await act(() => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    }
  }

  /** Runs the pending animation frame (deltas are applied once per frame). */
  async frame(): Promise<void> {
    await act(async () => this.frames.splice(0).forEach((f) => f()));
  }

  async act(action: () => void | Promise<void>): Promise<void> {
    await act(async () => {
      await action();
    });
  }

  /** Types `text` into the textarea as a user would (React sees an input event), caret at the end. */
  async type(text: string, selector = 'textarea'): Promise<void> {
    const el = this.find(selector) as HTMLTextAreaElement;
    await this.act(() => {
      const setter = Object.getOwnPropertyDescriptor(window.HTMLTextAreaElement.prototype, 'value')!.set!;
      setter.call(el, text);
      el.setSelectionRange(text.length, text.length);
      el.dispatchEvent(new window.Event('input', { bubbles: true }));
      el.dispatchEvent(new window.KeyboardEvent('keyup', { bubbles: true }));
    });
  }

  /** A keydown on the element, cancelable as a real one is. */
  async key(init: KeyboardEventInit, selector = 'textarea'): Promise<void> {
    const el = this.find(selector);
    await this.act(() => {
      el.dispatchEvent(new window.KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
    });
  }

  find(selector: string): HTMLElement {
    const el = this.container.querySelector<HTMLElement>(selector);
    if (!el) throw new Error(`nothing matches ${selector} in:\n${this.container.innerHTML.slice(0, 2000)}`);
    return el;
  }

  all(selector: string): HTMLElement[] {
    return [...this.container.querySelectorAll<HTMLElement>(selector)];
  }

  requests(name: HostRequestName): unknown[] {
    return this.posted.flatMap((m) => (m.type === 'request' && m.name === name ? [m.params] : []));
  }

  async unmount(): Promise<void> {
    await act(async () => this.root?.unmount());
    this.container.remove();
  }

  private onPost(message: WebviewMessage): void {
    this.posted.push(message);
    if (message.type !== 'request') return;
    const answer = this.answers[message.name];
    const reply = (m: HostMessage) =>
      queueMicrotask(() => window.dispatchEvent(new window.MessageEvent('message', { data: m })));
    if (!answer) return reply({ type: 'response', id: message.id, error: `no answer for ${message.name}` });
    Promise.resolve()
      .then(() => answer(message.params as never))
      .then(
        (result) => reply({ type: 'response', id: message.id, result }),
        (error: Error) => reply({ type: 'response', id: message.id, error: error.message }),
      );
  }
}
