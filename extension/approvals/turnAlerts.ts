// Says when a turn ended where nobody saw it (the window was not focused, or no visible conversation
// shows its thread): the thread is marked (the Threads view's badge and its tree item), the status bar
// names it until it is looked at, and, as `threadline.notifications` says, a notification offers to
// open it. Prompts that wait for an answer are PromptAlerts' (it reads the same setting).
import * as vscode from 'vscode';
import type { TurnStatus } from '../../server/protocol/thread';
import { Emitter } from '../../webview/common/emitter';
import { Disposable } from '../../webview/common/lifecycle';
import type { ThreadlineServer } from '../server/threadlineServer';
import { openThread } from '../threads/threadCommands';
import type { PendingApprovals } from './pendingApprovals';

export type NotifyWhen = 'off' | 'failuresAndQuestions' | 'always';
/** How a turn nobody saw ended. */
export type UnseenEnd = { status: Extract<TurnStatus, 'completed' | 'failed'>; error?: string; at: number };

export function notifyWhen(): NotifyWhen {
  const value = vscode.workspace.getConfiguration('threadline').get<string>('notifications');
  return value === 'off' || value === 'always' ? value : 'failuresAndQuestions';
}

export class TurnAlerts extends Disposable {
  /** The threads a notification was shown for, newest last (the in-editor tests read it). */
  readonly notified: string[] = [];
  private readonly unseen = new Map<string, UnseenEnd>();
  private readonly changes = this._register(new Emitter<string>());
  /** A thread's unseen end was recorded or cleared. */
  readonly onDidChange = this.changes.event;
  private readonly item = vscode.window.createStatusBarItem(
    'threadline.turnAlerts',
    vscode.StatusBarAlignment.Left,
    49,
  );

  constructor(
    server: ThreadlineServer,
    approvals: PendingApprovals,
    /** The thread's title as the tree shows it, when the tree knows the thread. */
    private readonly titleOf: (threadId: string) => string | undefined,
  ) {
    super();
    this.item.name = 'Threadline Turns';
    this.item.command = 'threadline.showUnseenTurn';
    this._registerAll(
      this.item,
      server.onNotification('turn/completed', ({ threadId, turn }) => {
        // An interrupted turn was stopped by someone (or the server stopped): nothing to announce.
        if (turn.status !== 'completed' && turn.status !== 'failed') return;
        const seen = approvals.isVisible(threadId);
        server.log.info(`turn ${turn.id} of thread ${threadId} ${turn.status}${seen ? '' : ' unseen'}`);
        if (seen) return;
        this.ended(threadId, { status: turn.status, error: turn.error?.message, at: Date.now() });
      }),
      server.onNotification('turn/started', ({ threadId }) => this.seen(threadId)),
      approvals.onDidShowThread((threadId) => {
        if (approvals.isVisible(threadId)) this.seen(threadId);
      }),
      vscode.window.onDidChangeWindowState(({ focused }) => {
        if (!focused) return;
        for (const threadId of [...this.unseen.keys()])
          if (approvals.isVisible(threadId)) this.seen(threadId);
      }),
      vscode.commands.registerCommand('threadline.showUnseenTurn', () => this.showNewest()),
    );
  }

  /** How the thread's last turn ended, if nobody has looked at it since. */
  endOf(threadId: string): UnseenEnd | undefined {
    return this.unseen.get(threadId);
  }

  unseenThreads(): string[] {
    return [...this.unseen.keys()];
  }

  /** What the status bar item says; undefined while it is hidden. */
  get statusText(): string | undefined {
    return this.unseen.size ? this.item.text : undefined;
  }

  private ended(threadId: string, end: UnseenEnd): void {
    this.unseen.delete(threadId); // re-inserted: the newest last
    this.unseen.set(threadId, end);
    this.changes.fire(threadId);
    this.update();
    const when = notifyWhen();
    if (when === 'always' || (when === 'failuresAndQuestions' && end.status === 'failed'))
      void this.notify(threadId, end);
  }

  private seen(threadId: string): void {
    if (!this.unseen.delete(threadId)) return;
    this.changes.fire(threadId);
    this.update();
  }

  private update(): void {
    const ends = [...this.unseen.values()];
    if (!ends.length) return this.item.hide();
    const failed = ends.filter((e) => e.status === 'failed').length;
    const [newestId] = [...this.unseen.keys()].slice(-1);
    const title = this.titleOf(newestId) ?? 'a thread';
    this.item.text =
      ends.length === 1
        ? `$(${failed ? 'error' : 'check'}) Threadline: ${failed ? 'turn failed' : 'turn done'} in ${title}`
        : `$(${failed ? 'error' : 'check'}) Threadline: ${ends.length} threads have news`;
    this.item.tooltip = [...this.unseen.entries()]
      .map(([id, end]) => `${this.titleOf(id) ?? id}: ${describe(end)}`)
      .join('\n');
    this.item.backgroundColor = failed ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  private async showNewest(): Promise<void> {
    const [newest] = [...this.unseen.keys()].slice(-1);
    if (newest) await openThread(newest);
  }

  private async notify(threadId: string, end: UnseenEnd): Promise<void> {
    this.notified.push(threadId);
    if (this.notified.length > 50) this.notified.shift();
    const title = this.titleOf(threadId);
    const message = `Threadline: ${title ? `“${title}”: ` : ''}${describe(end)}`;
    const show =
      end.status === 'failed' ? vscode.window.showErrorMessage : vscode.window.showInformationMessage;
    if ((await show(message, 'Open Thread')) === 'Open Thread') await openThread(threadId);
  }
}

function describe(end: UnseenEnd): string {
  return end.status === 'failed' ? `the turn failed${end.error ? `: ${end.error}` : ''}` : 'the turn is done';
}
