// "Keep this while anyone needs it": a count per key, raised by `keep` and lowered by disposing what it
// returned (once, however often that is disposed). Used for threads a view shows, whose prompts need
// no notification, and threads the server must re-open after a restart.
import { toDisposable, type IDisposable } from './lifecycle';

export class RefCounts<K> {
  private readonly counts = new Map<K, number>();

  /** `onDidRelease` hears a key whose last keeper let go. */
  constructor(private readonly onDidRelease: (key: K) => void = () => {}) {}

  keep(key: K): IDisposable {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return toDisposable(() => {
      const count = (this.counts.get(key) ?? 1) - 1;
      if (count > 0) return void this.counts.set(key, count);
      if (this.counts.delete(key)) this.onDidRelease(key);
    });
  }

  has(key: K): boolean {
    return this.counts.has(key);
  }

  /** The keys kept right now. */
  keys(): K[] {
    return [...this.counts.keys()];
  }
}
