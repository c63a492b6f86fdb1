// One event type for the extension and the webview, vscode-free. `Event<T>` has the shape of
// `vscode.Event<T>`, so an `Emitter` can back a VS Code API (a tree's onDidChangeTreeData) directly.
import { toDisposable, type IDisposable } from './lifecycle';

export type Event<T> = (
  listener: (event: T) => unknown,
  thisArgs?: unknown,
  disposables?: IDisposable[],
) => IDisposable;

export interface EmitterOptions {
  /** The last listener went away (a keyed collection of emitters drops this one). */
  onDidRemoveLastListener?: () => void;
}

export class Emitter<T> implements IDisposable {
  // One entry per subscription, never per function: the same function subscribed twice is two
  // listeners, and unsubscribing one of them (however often) removes only that one.
  private listeners = new Set<{ call: (event: T) => unknown }>();
  private disposed = false;

  constructor(private readonly options: EmitterOptions = {}) {}

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    if (this.disposed) return toDisposable(() => {});
    const entry = { call: (event: T) => listener.call(thisArgs, event) };
    this.listeners.add(entry);
    const subscription = toDisposable(() => {
      if (this.listeners.delete(entry) && this.listeners.size === 0) this.options.onDidRemoveLastListener?.();
    });
    disposables?.push(subscription);
    return subscription;
  };

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  /**
   * Calls every listener subscribed when it starts, in subscription order (one that unsubscribes
   * during the call is skipped). A throwing listener does not keep the others from hearing the event;
   * the first error is rethrown after all of them ran.
   */
  fire(event: T): void {
    let failure: { error: unknown } | undefined;
    for (const entry of [...this.listeners]) {
      if (!this.listeners.has(entry)) continue;
      try {
        entry.call(event);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = new Set();
  }
}
