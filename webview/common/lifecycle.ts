// Lifetimes without VS Code: the extension's Node-only modules and the webview own listeners and
// resources too, and each used to hand-roll its own list of them. Shaped like VS Code's own
// `Disposable` so either kind can be registered with the other.

export interface IDisposable {
  dispose(): void;
}

/** A disposable that runs `dispose` once, however often it is disposed. */
export function toDisposable(dispose: () => void): IDisposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

/** Disposes each in order; every one is disposed even when an earlier one throws (the first error is rethrown). */
export function disposeAll(disposables: Iterable<IDisposable>): void {
  const errors: unknown[] = [];
  for (const d of disposables) {
    try {
      d.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw errors[0];
}

/**
 * The base of every class that owns listeners or resources: what it `_register`s is disposed with it,
 * once, in registration order. Registering after disposal disposes at once, so nothing outlives it.
 */
export abstract class Disposable implements IDisposable {
  private readonly owned = new Set<IDisposable>();
  private disposedFlag = false;

  protected get isDisposed(): boolean {
    return this.disposedFlag;
  }

  protected _register<T extends IDisposable>(disposable: T): T {
    if (this.disposedFlag) disposable.dispose();
    else this.owned.add(disposable);
    return disposable;
  }

  protected _registerAll(...disposables: IDisposable[]): void {
    for (const disposable of disposables) this._register(disposable);
  }

  dispose(): void {
    if (this.disposedFlag) return;
    this.disposedFlag = true;
    const owned = [...this.owned];
    this.owned.clear();
    disposeAll(owned);
  }
}
