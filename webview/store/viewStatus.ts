// Which state the page shows, as a pure reducer over host messages: a page that showed a thread before
// (its saved state says so) is loading until the host's first answer, so no empty start view flashes
// before the thread; one that did not opens on the start view's composer at once (typing can begin while
// the server starts). Then the thread or the start view, with the server's failure on top until a
// snapshot or `empty` after a restart replaces it. Unchanged status keeps its identity, so nothing
// re-renders for the messages that do not concern it.
import type { HostMessage } from '../messages';

export interface ViewStatus {
  /** `loading`: nothing from the host yet; `start`: no thread open; `thread`: a thread is shown. */
  phase: 'loading' | 'start' | 'thread';
  /** Why the server stopped for good, while it has. */
  serverFailure: string | null;
}

export function initialViewStatus(expectsThread: boolean): ViewStatus {
  return { phase: expectsThread ? 'loading' : 'start', serverFailure: null };
}

export function reduceViewStatus(status: ViewStatus, message: HostMessage): ViewStatus {
  switch (message.type) {
    case 'snapshot':
      return same(status, 'thread', null);
    case 'empty':
      return same(status, 'start', null);
    case 'serverFailed':
      // A thread stays on screen (its history is still worth reading); nothing else to show otherwise.
      return same(status, status.phase === 'thread' ? 'thread' : 'start', message.reason);
    default:
      return status;
  }
}

function same(status: ViewStatus, phase: ViewStatus['phase'], serverFailure: string | null): ViewStatus {
  return status.phase === phase && status.serverFailure === serverFailure ? status : { phase, serverFailure };
}
