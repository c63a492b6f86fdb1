// The Threads view: the tree model fed by the shared server, its TreeView (badge, multi-select), the
// workspace/all toggle, and the view's own commands.
import * as vscode from 'vscode';
import { Disposable } from '../../webview/common/lifecycle';
import type { PendingApprovals } from '../approvals/pendingApprovals';
import type { TurnAlerts } from '../approvals/turnAlerts';
import type { ThreadlineServer } from '../server/threadlineServer';
import type { Placement } from '../conversation/placement';
import { openThread, targets, threadCommands } from './threadCommands';
import { worktreeCommands } from './worktreeCommands';
import { WorktreeCounts } from './worktreeCounts';
import { sectionCommands } from './sectionCommands';
import { ThreadDragAndDrop } from './threadDragAndDrop';
import { threadOrigin } from './threadOrigin';
import { searchThreads } from './threadSearch';
import { ThreadTreeModel } from './threadTreeModel';
import { type SectionId, type TreeNode } from './treeNodes';
import { ThreadTreeProvider } from './threadTreeProvider';

export const THREADS_VIEW = 'threadline.threads';
const SHOW_ALL_KEY = 'threadline.showAllWorkspaces';
const LISTED_KEY = 'threadline.threadsListed';

export function workspaceFolders(): string[] | undefined {
  const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath);
  return folders && folders.length > 0 ? folders : undefined;
}

export class ThreadsView extends Disposable {
  readonly model: ThreadTreeModel;
  readonly view: vscode.TreeView<unknown>;
  readonly provider: ThreadTreeProvider;
  private showAll = false;

  constructor(
    server: ThreadlineServer,
    private readonly state: vscode.Memento,
    private readonly approvals: PendingApprovals,
    /** Turns that ended unseen: their threads count in the badge and are marked in the tree. */
    private readonly turnAlerts?: Pick<TurnAlerts, 'onDidChange' | 'endOf' | 'unseenThreads'>,
  ) {
    super();
    this.showAll = state.get<boolean>(SHOW_ALL_KEY, false);
    this.model = new ThreadTreeModel(
      {
        list: (params) => server.request('thread/list', params),
        read: async (threadId) => (await server.request('thread/read', { threadId })).thread,
        sections: async () => (await server.request('threadSection/list', { limit: 1000 })).data,
      },
      { scope: () => (this.showAll ? undefined : workspaceFolders()) },
    );
    const counts = new WorktreeCounts(server);
    const provider = new ThreadTreeProvider(
      this.model,
      (error) => {
        // The welcome view shows the error (with Show Log) instead of "No threads yet".
        void vscode.commands.executeCommand('setContext', 'threadline.threadsError', error !== undefined);
        void vscode.commands.executeCommand('setContext', LISTED_KEY, true);
        if (error) server.log.error(`listing threads failed: ${error}`);
      },
      (threadId) => approvals.list(threadId).length > 0,
      () => server.info?.codexHome,
      (threadId) => turnAlerts?.endOf(threadId)?.status,
      (threadId) => counts.countOf(threadId),
    );
    this.provider = provider;
    const view = vscode.window.createTreeView(THREADS_VIEW, {
      treeDataProvider: provider,
      canSelectMany: true,
      showCollapseAll: true,
      dragAndDropController: new ThreadDragAndDrop(server),
    });
    this.view = view as vscode.TreeView<unknown>;
    void vscode.commands.executeCommand('setContext', SHOW_ALL_KEY, this.showAll);
    this._registerAll(
      provider,
      view,
      counts,
      counts.onDidChange((threadId) => {
        const node = this.model.thread(threadId);
        if (node) provider.refresh(node);
      }),
      server.onAnyNotification((notification) => {
        if (this.model.apply(notification)) this.updateBadge();
      }),
      server.onRestarted(() => this.model.reset()),
      approvals.onDidChange(({ added, settled }) => {
        const node = this.model.thread((added ?? settled?.prompt)!.threadId);
        if (node) provider.refresh(node);
        this.updateBadge();
      }),
      turnAlerts?.onDidChange((threadId) => {
        const node = this.model.thread(threadId);
        if (node) provider.refresh(node);
        this.updateBadge();
      }) ?? { dispose() {} },
      // A server that stopped for good: the tree empties so its welcome view tells why.
      server.onStateChange((state) => state === 'failed' && this.model.reset()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.model.reset()),
      ...threadCommands(server, () => workspaceFolders()?.[0]),
      ...worktreeCommands(server, () => workspaceFolders()?.[0]),
      ...sectionCommands(server, this.model),
      // Clicking a thread: the conversation view opens it once it is there; selecting is all until then.
      vscode.commands.registerCommand('threadline.openFromTree', (threadId: string) =>
        this.open(server, threadId),
      ),
      // A row's Open in Editor button (Alt+click: to the side), its context menu, Ctrl/Cmd+Enter.
      vscode.commands.registerCommand(
        'threadline.openThreadInEditor',
        (node?: TreeNode, selected?: TreeNode[]) => this.openEach(server, node, selected, 'editor'),
      ),
      vscode.commands.registerCommand(
        'threadline.openThreadToSide',
        (node?: TreeNode, selected?: TreeNode[]) => this.openEach(server, node, selected, 'side'),
      ),
      vscode.commands.registerCommand('threadline.refreshThreads', () => {
        counts.forget();
        this.model.reset();
      }),
      vscode.commands.registerCommand('threadline.showAllWorkspaces', () => this.setShowAll(true)),
      vscode.commands.registerCommand('threadline.showWorkspaceOnly', () => this.setShowAll(false)),
      vscode.commands.registerCommand('threadline.loadMore', (section: SectionId) =>
        this.model.loadMore(section),
      ),
      vscode.commands.registerCommand('threadline.showArchived', () =>
        view.reveal(this.model.archivedNode, { expand: true, select: false, focus: true }),
      ),
      vscode.commands.registerCommand('threadline.searchThreads', async () => {
        const picked = await searchThreads(server);
        if (picked) await this.open(server, picked.threadId, picked.turnId);
        return picked?.threadId;
      }),
    );
    this._registerAll(
      this.model.onDidChange(() => this.updateMessage()),
      // Until the first page is in, an empty tree says nothing (it said "No threads yet" while a
      // thread was open, whenever the server was starting or restarting): the welcome view says so.
      this.model.onDidChange((nodes) => {
        if (!nodes && !this.model.listed)
          void vscode.commands.executeCommand('setContext', LISTED_KEY, false);
      }),
    );
    this.updateMessage();
  }

  /**
   * Opens a thread where the setting (or `placement`) says. A thread of the Codex history is only read by the
   * server: resuming it gives its continuation in Threadline's home, which is what opens.
   */
  private async open(
    server: ThreadlineServer,
    threadId: string,
    turnId?: string,
    placement?: Placement,
  ): Promise<void> {
    const thread = this.model.thread(threadId)?.thread;
    if (thread && threadOrigin(thread, server.info?.codexHome).codexHistory) {
      const { thread: continued } = await server.request('thread/resume', { threadId, excludeTurns: true });
      return openThread(continued.id, undefined, placement);
    }
    return openThread(threadId, turnId, placement);
  }

  /** The clicked rows (a keybinding passes none: the selected ones), each in an editor tab of its own. */
  private async openEach(
    server: ThreadlineServer,
    node: TreeNode | undefined,
    selected: TreeNode[] | undefined,
    placement: Placement,
  ): Promise<void> {
    const selection = this.view.selection as TreeNode[];
    const nodes = node ? targets(node, selected) : targets(selection[0], selection);
    for (const { thread } of nodes) await this.open(server, thread.id, undefined, placement);
  }

  private async setShowAll(showAll: boolean): Promise<void> {
    this.showAll = showAll;
    await this.state.update(SHOW_ALL_KEY, showAll);
    await vscode.commands.executeCommand('setContext', SHOW_ALL_KEY, showAll);
    this.model.reset();
  }

  private updateBadge(): void {
    const waiting = this.model.waitingCount(this.approvals.list().map((p) => p.threadId));
    const ended = this.turnAlerts?.unseenThreads() ?? [];
    const value = this.model.waitingCount([...this.approvals.list().map((p) => p.threadId), ...ended]);
    const says = [
      waiting ? `${waiting} thread${waiting === 1 ? '' : 's'} waiting for approval` : '',
      value > waiting ? `${value - waiting} with a turn ended unseen` : '',
    ];
    this.view.badge = value ? { value, tooltip: says.filter(Boolean).join(', ') } : undefined;
  }

  /** The view's title line says which threads it lists. */
  private updateMessage(): void {
    this.view.description = this.showAll ? 'All workspaces' : undefined;
  }
}
