// What one conversation view sees of one thread: a snapshot (the thread's settings and its newest turns,
// older ones paged in on request, a long turn's earlier items likewise), then every notification for the
// thread as a numbered delta. No
// `vscode` import, so it is tested against the real server in plain Node.
import { sandboxModeOf } from '../../server/protocol/enums';
import type { ClientMethod, ParamsOf, ResultOf } from '../../server/protocol/methods';
import type { ServerNotification } from '../../server/protocol/notificationRoutes';
import type { Turn } from '../../server/protocol/thread';
import type { IDisposable } from '../../webview/common/lifecycle';
import type { HostMessage, ThreadSettings, ThreadSnapshot, ViewContext } from '../../webview/messages';
import type { OpenedSession } from '../client/unwrittenThreads';
import { retitled, type TitleParts } from '../../webview/common/threadTitle';
import { forbiddenChoices } from '../settings/requirements';
import { permissionProfileChoices } from '../settings/permissionProfiles';

export interface FeedServer {
  request<M extends ClientMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  /** thread/resume without turns (see UnwrittenThreads). */
  resume(threadId: string): Promise<OpenedSession>;
  onAnyNotification(listener: (notification: ServerNotification) => void): IDisposable;
}

/** Turns in the first snapshot and in each older page: enough to fill a view, cheap for huge threads. */
export const turnsPerPage = 20;

/**
 * Items of one turn the view gets at first, its newest: a long agentic turn can hold thousands, and
 * the view renders what it is sent. The rest come a page at a time through thread/items/list.
 */
export const itemsPerTurn = 200;

/** Turns with their newest `itemsPerTurn` items each, and which were cut. */
function newestItems(turns: Turn[]): { turns: Turn[]; earlierItems: string[] } {
  const earlierItems = turns.filter((turn) => turn.items.length > itemsPerTurn).map((turn) => turn.id);
  if (!earlierItems.length) return { turns, earlierItems };
  const cut = (turn: Turn) =>
    turn.items.length > itemsPerTurn ? { ...turn, items: turn.items.slice(-itemsPerTurn) } : turn;
  return { turns: turns.map(cut), earlierItems };
}

export class ThreadFeed {
  private seq = 0;
  /** Notifications that arrive while a snapshot is being read are in it (the server answers in order). */
  private loading = false;
  private olderCursor: string | null = null;
  private readonly subscription: IDisposable;
  private disposed = false;
  /** The thread's working directory, once the first snapshot is read. */
  cwd: string | undefined;
  onSnapshot: (thread: ThreadSnapshot['thread']) => void = () => {};
  /** The thread was renamed, or its first prompt became its preview, since the snapshot. */
  onRetitle: (title: TitleParts) => void = () => {};
  private title: TitleParts = { name: null, preview: '' };

  constructor(
    private readonly server: FeedServer,
    readonly threadId: string,
    private readonly post: (message: HostMessage) => void,
    private readonly context: ViewContext,
  ) {
    this.subscription = server.onAnyNotification((notification) => this.forward(notification));
  }

  /**
   * Reads the thread afresh and posts it whole: on open, on a resync, after a server restart (which
   * has resumed the thread already and passes its answer).
   */
  async snapshot(resumed?: OpenedSession): Promise<void> {
    this.loading = true;
    try {
      const session = resumed ?? (await this.server.resume(this.threadId));
      const [forbidden, profiles, goal] = await Promise.all([
        forbiddenChoices(this.server),
        permissionProfileChoices(this.server),
        this.goal(session),
      ]);
      // The turns are read last: a notification that comes after their answer is not in them, and is
      // forwarded once `loading` ends, with nothing awaited in between.
      const newest = await this.newestTurns(session);
      const { nextCursor } = newest;
      const { turns, earlierItems } = newestItems(newest.turns);
      this.olderCursor = nextCursor;
      const { turns: _omitted, ...thread } = session.thread;
      this.cwd = session.cwd;
      const snapshot: ThreadSnapshot = {
        thread,
        turns,
        hasOlderTurns: nextCursor !== null,
        earlierItems,
        settings: { ...settingsOf(session), forbidden, profiles },
        goal,
      };
      if (this.disposed) return;
      this.post({ type: 'snapshot', seq: this.seq, snapshot, context: this.context });
      this.title = thread;
      this.onSnapshot(thread);
    } finally {
      this.loading = false;
    }
  }

  /** Posts the page of turns before the oldest shown; answers how many came. */
  async loadOlder(): Promise<number> {
    if (!this.olderCursor) return 0;
    const page = await this.server.request('thread/turns/list', {
      threadId: this.threadId,
      cursor: this.olderCursor,
      limit: turnsPerPage,
      sortDirection: 'desc',
      itemsView: 'full',
    });
    this.olderCursor = page.nextCursor;
    const { turns, earlierItems } = newestItems([...page.data].reverse());
    this.post({
      type: 'olderTurns',
      threadId: this.threadId,
      turns,
      hasOlderTurns: page.nextCursor !== null,
      earlierItems,
    });
    return turns.length;
  }

  /** Posts a page of a long turn's items before `beforeItemId` (the first one shown); answers how many. */
  async loadEarlierItems(turnId: string, beforeItemId: string): Promise<number> {
    const page = await this.server.request('thread/items/list', {
      threadId: this.threadId,
      turnId,
      cursor: { type: 'item', itemId: beforeItemId },
      sortDirection: 'desc',
      limit: itemsPerTurn,
    });
    const items = page.data.map((entry) => entry.item).reverse();
    this.post({
      type: 'earlierItems',
      threadId: this.threadId,
      turnId,
      items,
      hasEarlierItems: page.nextCursor !== null,
    });
    return items.length;
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
  }

  /** The thread's goal; null for none, and from a server that keeps no goals. */
  private async goal(session: OpenedSession) {
    if (session.unwritten) return null;
    const read = await this.server.request('thread/goal/get', { threadId: this.threadId }).catch(() => null);
    return read?.goal ?? null;
  }

  private async newestTurns(session: OpenedSession): Promise<{ turns: Turn[]; nextCursor: string | null }> {
    // codex answers both requests below with an error for a thread it has not written down.
    if (session.unwritten) return { turns: [], nextCursor: null };
    try {
      const page = await this.server.request('thread/turns/list', {
        threadId: this.threadId,
        limit: turnsPerPage,
        sortDirection: 'desc',
        itemsView: 'full',
      });
      return { turns: [...page.data].reverse(), nextCursor: page.nextCursor };
    } catch {
      // A server without paging (or an older one): read the thread whole, once.
      const whole = await this.server.request('thread/read', {
        threadId: session.thread.id,
        includeTurns: true,
      });
      return { turns: whole.thread.turns, nextCursor: null };
    }
  }

  private forward(notification: ServerNotification): void {
    if (this.disposed || this.loading) return;
    if (!('threadId' in notification.params) || notification.params.threadId !== this.threadId) return;
    this.seq += 1;
    this.post({ type: 'delta', threadId: this.threadId, seq: this.seq, notification });
    const title = retitled(this.title, notification);
    if (title === this.title) return;
    this.title = title;
    this.onRetitle(title);
  }
}

/** The thread's effective settings in the spellings the composer's pickers use. */
export function settingsOf(session: ResultOf<'thread/resume'>): ThreadSettings {
  return {
    model: session.model,
    modelProvider: session.modelProvider,
    reasoningEffort: session.reasoningEffort,
    approvalPolicy: typeof session.approvalPolicy === 'string' ? session.approvalPolicy : 'on-request',
    sandbox: sandboxModeOf(session.sandbox) ?? '',
  };
}
