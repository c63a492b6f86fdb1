// A turn the server could not write to disk (a full disk, a read-only home) ends failed with a
// message naming the file and the reason. The conversation shows it under the turn; this says it
// in a VS Code notification too, as SaveFailureNotice decides (not once per failed turn).
import * as vscode from 'vscode';
import { Disposable } from '../../webview/common/lifecycle';
import { SaveFailureNotice } from './saveFailureNotice';
import type { ThreadlineServer } from './threadlineServer';

export class SaveFailures extends Disposable {
  private readonly notice = new SaveFailureNotice();

  constructor(server: ThreadlineServer) {
    super();
    this._register(
      server.onNotification('turn/completed', ({ turn }) => {
        const message = this.notice.next(turn);
        if (message) void vscode.window.showErrorMessage(message);
      }),
    );
  }
}
