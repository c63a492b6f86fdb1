// Which ended turns are worth a VS Code notification because the server could not save them: once
// per reason, since every later turn fails the same way until it is fixed, and again only after a
// turn was saved meanwhile. Kept apart from the notification itself so it is tested without VS Code.
import type { Turn } from '../../server/protocol/thread';
import { TURN_NOT_SAVED } from '../../server/protocol/turnNotSaved';

export class SaveFailureNotice {
  private shown: string | undefined;

  /** The message to show for a turn that just ended, if any. */
  next(turn: Pick<Turn, 'status' | 'error'>): string | undefined {
    const message = turn.error?.message;
    if (!message?.startsWith(TURN_NOT_SAVED)) {
      if (turn.status === 'completed') this.shown = undefined;
      return undefined;
    }
    const reason = message.slice(TURN_NOT_SAVED.length);
    if (reason === this.shown) return undefined;
    this.shown = reason;
    return `Threadline could not save the conversation: ${reason}. The last turn was not saved; free space or fix the folder's permissions, and the next turn will be.`;
  }
}
