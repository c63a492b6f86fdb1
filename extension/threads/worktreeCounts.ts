// How many files each worktree thread changed against its base, for its row in the Threads tree.
// Counting runs git (thread/worktree/read), so it is never done per redraw: a row asks once, and the
// count is read again only after a turn of the thread completes, an apply, or a refresh of the tree.
import { Emitter } from '../../webview/common/emitter';
import { Disposable } from '../../webview/common/lifecycle';
import type { ThreadlineServer } from '../server/threadlineServer';

export class WorktreeCounts extends Disposable {
  private readonly known = new Map<string, number>();
  private readonly reading = new Set<string>();
  /** Threads whose turn completed while their count was being read: read once more. */
  private readonly again = new Set<string>();
  /** A discarded worktree, a server restart: no count, and no retry loop from the redraws. */
  private readonly failed = new Set<string>();
  private readonly changed = this._register(new Emitter<string>());
  /** A thread's count arrived (or changed): its row is drawn again. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly server: ThreadlineServer) {
    super();
    this._register(
      server.onNotification('turn/completed', ({ threadId }) => {
        if (this.known.has(threadId) || this.reading.has(threadId)) this.read(threadId);
      }),
    );
  }

  /** The last count read; the first time undefined, and it is read (the row is told when it arrives). */
  countOf(threadId: string): number | undefined {
    if (!this.known.has(threadId) && !this.reading.has(threadId) && !this.failed.has(threadId)) {
      this.read(threadId);
    }
    return this.known.get(threadId);
  }

  /** Counts are read again when next asked for (the tree was refreshed, a worktree applied). */
  forget(threadId?: string): void {
    if (threadId === undefined) {
      this.known.clear();
      this.failed.clear();
    } else {
      this.known.delete(threadId);
      this.failed.delete(threadId);
    }
  }

  private read(threadId: string): void {
    if (this.reading.has(threadId)) {
      this.again.add(threadId);
      return;
    }
    this.reading.add(threadId);
    this.server.request('thread/worktree/read', { threadId }).then(
      ({ changedFiles }) => {
        this.reading.delete(threadId);
        this.known.set(threadId, changedFiles.length);
        this.changed.fire(threadId);
        if (this.again.delete(threadId)) this.read(threadId);
      },
      (error: Error) => {
        this.reading.delete(threadId);
        this.again.delete(threadId);
        this.failed.add(threadId);
        this.server.log.warn(`counting the changes of thread ${threadId} failed: ${error.message}`);
      },
    );
  }
}
