// "Threadline: Show Usage": one editor panel with the server's account/usage/read breakdown (tokens
// per model, day and thread, with the estimated cost from config.toml's [usage.prices]). It reads
// usage again when opened, on Refresh, and after each turn ends while it is open.
import * as vscode from 'vscode';
import { webviewHtml, webviewOptions } from '../conversation/webviewHtml';
import type { ThreadlineServer } from '../server/threadlineServer';
import type { UsageHostMessage, UsageViewMessage } from '../../webview/usage/usageMessages';

const viewType = 'threadline.usage';

export function usageCommands(extensionUri: vscode.Uri, server: ThreadlineServer): vscode.Disposable[] {
  const panel = new UsagePanel(extensionUri, server);
  return [
    panel,
    vscode.commands.registerCommand('threadline.showUsage', () => panel.show()),
    // A usage tab left open comes back after a reload, reading usage afresh.
    vscode.window.registerWebviewPanelSerializer(viewType, {
      deserializeWebviewPanel: async (restored) => panel.adopt(restored),
    }),
  ];
}

class UsagePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly turnEnds: vscode.Disposable;
  /** Bumped per read, so a slow answer never replaces a newer one. */
  private generation = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly server: ThreadlineServer,
  ) {
    this.turnEnds = server.onNotification('turn/completed', () => {
      if (this.panel?.visible) void this.refresh();
    });
  }

  show(): void {
    if (this.panel) return this.panel.reveal();
    this.adopt(
      vscode.window.createWebviewPanel(
        viewType,
        'Threadline Usage',
        vscode.ViewColumn.Active,
        webviewOptions(this.extensionUri),
      ),
    );
  }

  /** Fills a new or restored panel; a second restored one replaces the first. */
  adopt(panel: vscode.WebviewPanel): void {
    this.panel?.dispose();
    panel.webview.options = webviewOptions(this.extensionUri);
    panel.webview.html = webviewHtml(panel.webview, this.extensionUri, 'Threadline Usage', 'usage');
    panel.webview.onDidReceiveMessage((message: UsageViewMessage) => this.receive(message));
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    this.panel = panel;
  }

  dispose(): void {
    this.turnEnds.dispose();
    this.panel?.dispose();
  }

  private receive(message: UsageViewMessage): void {
    switch (message.type) {
      case 'ready':
      case 'refresh':
        void this.refresh();
        break;
      case 'openThread':
        void vscode.commands.executeCommand('threadline.openFromTree', message.threadId);
        break;
      case 'editPrices':
        void this.openConfig();
        break;
    }
  }

  private async refresh(): Promise<void> {
    const generation = ++this.generation;
    this.post({ type: 'loading' });
    let answer: UsageHostMessage;
    try {
      answer = { type: 'usage', usage: await this.server.request('account/usage/read', { breakdown: true }) };
    } catch (error) {
      answer = { type: 'error', message: `Could not read usage: ${(error as Error).message}` };
    }
    if (generation === this.generation) this.post(answer);
  }

  /** The user's config.toml, where [usage.prices] goes (docs/configuration.md, Usage and prices). */
  private async openConfig(): Promise<void> {
    try {
      const { layers } = await this.server.request('config/read', { includeLayers: true });
      const user = layers?.find((layer) => layer.name.type === 'user')?.name;
      if (user?.type !== 'user') throw new Error('the server named no user config file');
      const uri = vscode.Uri.file(user.file);
      // A home without a config.toml yet: create it empty, so the editor opens it.
      await vscode.workspace.fs
        .stat(uri)
        .then(undefined, () => vscode.workspace.fs.writeFile(uri, new Uint8Array()));
      await vscode.window.showTextDocument(uri, { preview: false });
    } catch (error) {
      void vscode.window.showErrorMessage(
        `Threadline: could not open config.toml: ${(error as Error).message}`,
      );
    }
  }

  private post(message: UsageHostMessage): void {
    void this.panel?.webview.postMessage(message);
  }
}
