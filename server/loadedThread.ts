// What the server holds for a thread while it is loaded, in one record: the settings it runs with,
// its running turn, its token usage, what the user approved for the session, and the commands the
// model left running. It goes as one when the thread unloads.
import type { ActiveTurn } from './agent/activeTurn';
import { UsageTotals } from './agent/usage';
import { SessionGrants } from './approvals/sessionGrants';
import type { ThreadSettings } from './config/settings';
import { CommandSessions } from './exec/commandSessions';
import type { ThreadState } from './threads/loadedThreads';

export class LoadedThread implements ThreadState {
  /** As resolved when the thread was started or resumed, then by each turn's overrides. */
  settings: ThreadSettings | undefined;
  /** The running turn, if there is one. */
  turn: ActiveTurn | undefined;
  readonly usage = new UsageTotals();
  /** The session-wide yeses; they end with the thread's load. */
  readonly grants = new SessionGrants();
  /** exec_command sessions still running or unread. */
  readonly commands = new CommandSessions();

  constructor(readonly threadId: string) {}

  dispose(): void {
    this.commands.closeAll();
  }
}
