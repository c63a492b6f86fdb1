// The MCP Servers view in the Threadline side bar: each configured server with its state and tools,
// a failed one's error (and the log, where its stderr goes), sign-in for OAuth servers, and Reload
// after editing config.toml. Listing starts the servers, so it happens when the view is shown. The
// servers of the project of the thread the user last worked in (and trusted) are listed too.
import * as vscode from 'vscode';
import { Emitter } from '../../webview/common/emitter';
import { Disposable } from '../../webview/common/lifecycle';
import type { McpServerStatus } from '../../server/protocol/mcp';
import type { ThreadlineServer } from '../server/threadlineServer';
import { childrenOf, serverNode, type McpNode, type ServerLook, type ServerNode } from './mcpServerNodes';

export const MCP_VIEW = 'threadline.mcpServers';

const serverIcons: Record<ServerLook, vscode.ThemeIcon> = {
  connected: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
  signIn: new vscode.ThemeIcon('key', new vscode.ThemeColor('list.warningForeground')),
  disabled: new vscode.ThemeIcon('circle-slash'),
  starting: new vscode.ThemeIcon('loading~spin'),
};

export class McpServersView extends Disposable implements vscode.TreeDataProvider<McpNode> {
  private readonly changed = new Emitter<McpNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<McpNode>;
  /** The last listing; the tests read it. */
  servers: ServerNode[] = [];
  /** The thread of the last turn: its project's servers are listed after the user's own. */
  private threadId: string | undefined;

  constructor(private readonly server: ThreadlineServer) {
    super();
    this.view = vscode.window.createTreeView(MCP_VIEW, { treeDataProvider: this, showCollapseAll: true });
    this._registerAll(
      this.view,
      this.changed,
      server.onNotification('mcpServer/startupStatus/updated', () => this.refresh()),
      server.onNotification('turn/completed', ({ threadId }) => {
        this.threadId = threadId;
        this.refresh();
      }),
      server.onRestarted(() => this.refresh()),
      vscode.commands.registerCommand('threadline.mcp.refresh', () => this.refresh()),
      vscode.commands.registerCommand('threadline.mcp.reload', () => this.reload()),
      vscode.commands.registerCommand('threadline.mcp.signIn', (node?: McpNode | string) =>
        this.signIn(typeof node === 'string' ? node : node?.kind === 'server' ? node.name : node?.server),
      ),
    );
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Reads config.toml again; the servers' new state shows once they have started. */
  async reload(): Promise<ServerNode[]> {
    await this.server.request('config/mcpServer/reload', {});
    return this.list();
  }

  async getChildren(node?: McpNode): Promise<McpNode[]> {
    if (!node) {
      try {
        return await this.list();
      } catch (error) {
        this.server.log.error(`listing MCP servers failed: ${(error as Error).message}`);
        return [];
      }
    }
    return node.kind === 'server' ? childrenOf(node) : [];
  }

  getParent(node: McpNode): McpNode | undefined {
    return node.kind === 'server' ? undefined : this.servers.find((s) => s.name === node.server);
  }

  getTreeItem(node: McpNode): vscode.TreeItem {
    if (node.kind === 'server') {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `mcp:${node.name}`;
      item.description = node.description;
      item.tooltip = node.tooltip;
      item.iconPath = serverIcons[node.look];
      item.contextValue = node.look === 'signIn' ? 'mcpServer.signIn' : 'mcpServer';
      if (node.look === 'failed' || node.look === 'signIn')
        item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
      return item;
    }
    if (node.kind === 'tool') {
      const item = new vscode.TreeItem(node.name);
      item.id = `mcp:${node.server}:tool:${node.name}`;
      item.description = node.destructive ? `asks first · ${node.description}` : node.description;
      item.tooltip = node.description || node.name;
      item.iconPath = new vscode.ThemeIcon(node.destructive ? 'warning' : 'tools');
      return item;
    }
    const item = new vscode.TreeItem(node.text);
    item.id = `mcp:${node.server}:message:${node.action ?? node.text}`;
    item.tooltip = node.text;
    if (node.action === 'signIn') {
      item.iconPath = new vscode.ThemeIcon('sign-in');
      item.command = { command: 'threadline.mcp.signIn', title: 'Sign In', arguments: [node.server] };
    } else if (node.action === 'showLog') {
      item.iconPath = new vscode.ThemeIcon('output');
      item.command = { command: 'threadline.showLog', title: 'Show Log' };
    } else {
      item.iconPath = new vscode.ThemeIcon('info');
    }
    return item;
  }

  private async list(): Promise<ServerNode[]> {
    let data: McpServerStatus[];
    try {
      data = await this.pages(this.threadId);
    } catch (error) {
      if (!this.threadId) throw error;
      // The thread was unloaded meanwhile: the user's own servers still show.
      this.threadId = undefined;
      data = await this.pages(undefined);
    }
    this.servers = data.map(serverNode);
    return this.servers;
  }

  private async pages(threadId: string | undefined): Promise<McpServerStatus[]> {
    const data: McpServerStatus[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: McpServerStatus[]; nextCursor?: string | null } = await this.server.request(
        'mcpServerStatus/list',
        { cursor, detail: 'toolsAndAuthOnly', ...(threadId ? { threadId } : {}) },
      );
      data.push(...page.data);
      cursor = page.nextCursor ?? null;
    } while (cursor);
    return data;
  }

  /** Opens the server's sign-in page in the browser; the view updates when the sign-in completes. */
  async signIn(name: string | undefined): Promise<void> {
    if (!name) return;
    let answer: { authorizationUrl: string; loginId?: string | null };
    try {
      answer = await this.server.request('mcpServer/oauth/login', { name });
    } catch (error) {
      void vscode.window.showErrorMessage(`Cannot sign in to ${name}: ${(error as Error).message}`);
      return;
    }
    const done = new Promise<{ success: boolean; error?: string | null }>((resolve) => {
      const listener = this.server.onNotification('mcpServer/oauthLogin/completed', (params) => {
        if (params.name !== name || (answer.loginId && params.loginId && params.loginId !== answer.loginId))
          return;
        listener.dispose();
        resolve(params);
      });
      this._registerAll(listener);
    });
    await vscode.env.openExternal(vscode.Uri.parse(answer.authorizationUrl, true));
    const outcome = await done;
    if (outcome.success) void vscode.window.showInformationMessage(`Signed in to the MCP server ${name}.`);
    else
      void vscode.window.showErrorMessage(`Sign-in to ${name} failed: ${outcome.error ?? 'unknown error'}`);
    this.refresh();
  }
}
