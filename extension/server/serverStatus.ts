// The status bar item (server state, provider and model, a spinner while turns run), the
// `threadline.serverState` context key the welcome views use, and the error shown when the server
// stops for good.
import * as vscode from 'vscode';
import { Disposable } from '../../webview/common/lifecycle';
import type { ServerState } from '../client/serverClient';
import { readSettings } from '../settings/settings';
import type { ThreadlineServer } from './threadlineServer';

const look: Record<ServerState, { icon: string; text: string }> = {
  stopped: { icon: 'comment-discussion', text: 'not started' },
  starting: { icon: 'loading~spin', text: 'starting' },
  ready: { icon: 'comment-discussion', text: 'ready' },
  restarting: { icon: 'loading~spin', text: 'restarting' },
  failed: { icon: 'error', text: 'stopped' },
};

export class ServerStatus extends Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'threadline.status',
    vscode.StatusBarAlignment.Left,
    10,
  );
  private readonly running = new Set<string>();

  constructor(private readonly server: ThreadlineServer) {
    super();
    this.item.name = 'Threadline';
    this.item.command = 'threadline.statusMenu';
    this._registerAll(
      this.item,
      server.onStateChange((state, detail) => {
        if (state !== 'ready') this.running.clear();
        this.render();
        if (state === 'failed') void this.showFailure(detail);
      }),
      server.onNotification('turn/started', ({ threadId }) => this.turn(threadId, true)),
      server.onNotification('turn/completed', ({ threadId }) => this.turn(threadId, false)),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('threadline') && this.render()),
      vscode.commands.registerCommand('threadline.statusMenu', () => this.menu()),
    );
    this.render();
    this.item.show();
  }

  private turn(threadId: string, running: boolean): void {
    if (running) this.running.add(threadId);
    else this.running.delete(threadId);
    this.render();
  }

  private render(): void {
    const state = this.server.state;
    void vscode.commands.executeCommand('setContext', 'threadline.serverState', state);
    // Views hide what only Threadline's own server offers when another server is configured.
    void vscode.commands.executeCommand('setContext', 'threadline.ownServer', this.server.isThreadline);
    const { modelProvider, model } = readSettings();
    const using = [modelProvider, model].filter(Boolean).join(' · ');
    const busy = state === 'ready' && this.running.size > 0;
    this.item.text = `$(${busy ? 'sync~spin' : look[state].icon}) Threadline${using ? ` · ${using}` : ''}`;
    const lines = [`Threadline server: ${look[state].text}`];
    if (this.server.failure) lines.push(this.server.failure);
    if (busy) lines.push(`${this.running.size} turn${this.running.size === 1 ? '' : 's'} running`);
    lines.push(using ? `Model: ${using}` : 'Model: from config.toml', 'Click for actions');
    this.item.tooltip = lines.join('\n');
    this.item.backgroundColor =
      state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  private async showFailure(detail: string | undefined): Promise<void> {
    const choice = await vscode.window.showErrorMessage(
      `Threadline's server stopped. ${detail ?? ''}`.trim(),
      'Show Log',
      'Restart',
    );
    if (choice === 'Show Log') this.server.log.show();
    if (choice === 'Restart') await vscode.commands.executeCommand('threadline.restartServer');
  }

  private async menu(): Promise<void> {
    const actions: (vscode.QuickPickItem & { command: string })[] = [
      { label: '$(key) Sign in with API Key…', command: 'threadline.signIn' },
      { label: '$(sign-out) Sign Out…', command: 'threadline.signOut' },
      { label: '$(settings-gear) Choose Provider and Model…', command: 'threadline.chooseModel' },
      { label: '$(debug-restart) Restart Server', command: 'threadline.restartServer' },
      { label: '$(output) Show Log', command: 'threadline.showLog' },
    ];
    const picked = await vscode.window.showQuickPick(actions, { title: 'Threadline' });
    if (picked) await vscode.commands.executeCommand(picked.command);
  }
}
