// A turn the server could not write to disk (a full disk, a read-only home) ends failed with a
// message naming the file and the reason. The conversation shows it under the turn; this says it
// once in a VS Code notification too, since every later turn fails the same way until it is fixed:
// once per reason, and again only after a turn was saved meanwhile.
import * as vscode from 'vscode';
import { TURN_NOT_SAVED } from '../../server/protocol/thread';
import { Disposable } from '../../webview/common/lifecycle';
import type { ThreadlineServer } from './threadlineServer';

export class SaveFailures extends Disposable {
  private shown: string | undefined;

  constructor(server: ThreadlineServer) {
    super();
    this._register(
      server.onNotification('turn/completed', ({ turn }) => {
        const message = turn.error?.message;
        if (!message?.startsWith(TURN_NOT_SAVED)) {
          if (turn.status === 'completed') this.shown = undefined;
          return;
        }
        const reason = message.slice(TURN_NOT_SAVED.length);
        if (reason === this.shown) return;
        this.shown = reason;
        void vscode.window.showErrorMessage(
          `Threadline could not save the conversation: ${reason}. The last turn was not saved; free space or fix the folder's permissions, and the next turn will be.`,
        );
      }),
    );
  }
}
