// An editor tab's title and icon follow its thread's state (running, waiting for you, failed), so
// several threads running side by side can be told apart at a glance. The status comes from the
// snapshot the tab's session read, then from the server's status notifications and the prompts the
// client holds, the same sources as the Threads tree.
import * as vscode from 'vscode';
import type { ThreadStatus } from '../../server/protocol/thread';
import { Disposable } from '../../webview/common/lifecycle';
import type { ThreadlineServer } from '../server/threadlineServer';
import type { PromptRegistry } from './promptFeed';
import { tabIcon, tabLook, tabTitle } from './tabState';

export class ThreadTab extends Disposable {
  private threadId: string | undefined;
  private status: ThreadStatus | undefined;
  private title = 'Threadline';

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly mediaUri: vscode.Uri,
    server: ThreadlineServer,
    private readonly approvals: PromptRegistry,
  ) {
    super();
    this._registerAll(
      server.onAnyNotification((notification) => {
        if (notification.method !== 'thread/status/changed') return;
        if (notification.params.threadId !== this.threadId) return;
        this.status = notification.params.status;
        this.update();
      }),
      approvals.onDidChange(({ added, settled }) => {
        if ((added ?? settled?.prompt)?.threadId === this.threadId) this.update();
      }),
    );
    this.update();
  }

  /** The session read its thread (opened, switched, read again after a restart). */
  shown(threadId: string, status: ThreadStatus): void {
    this.threadId = threadId;
    this.status = status;
    this.update();
  }

  retitle(title: string): void {
    this.title = title;
    this.update();
  }

  private update(): void {
    const waiting = this.threadId !== undefined && this.approvals.list(this.threadId).length > 0;
    const look = tabLook(this.status, waiting);
    this.panel.title = tabTitle(this.title, look);
    const icon = tabIcon(look);
    this.panel.iconPath = {
      light: vscode.Uri.joinPath(this.mediaUri, icon.light),
      dark: vscode.Uri.joinPath(this.mediaUri, icon.dark),
    };
  }
}
