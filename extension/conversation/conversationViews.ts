// The conversation's places in the editor: the "Conversation" view (under Threads, or its twin in the
// secondary side bar, as `threadline.conversation.openIn` says) showing the thread opened last, and any
// number of editor tabs, each with its own thread and running turns of its own, which come back after a
// reload through the panel serializer. `threadline.openThread` is what the Threads tree's Open runs.
import * as vscode from 'vscode';
import type { PendingApprovals } from '../approvals/pendingApprovals';
import { SHOWN_THREAD } from '../export/threadExport';
import type { ThreadlineServer } from '../server/threadlineServer';
import { ConversationSession, type SessionServices } from './conversationSession';
import { DiffViews } from './diffViews';
import { ContextMentions } from './contextMentions';
import { FileMentions } from './fileMentions';
import {
  isPlacement,
  openIn,
  OPEN_IN_SETTING,
  primaryViewId,
  secondaryViewId,
  shownViewId,
  type Placement,
} from './placement';
import { ThreadTab } from './threadTab';
import { webviewHtml, webviewOptions } from './webviewHtml';

const panelViewType = 'threadline.conversationPanel';

export function registerConversation(
  context: vscode.ExtensionContext,
  server: ThreadlineServer,
  approvals: PendingApprovals,
): vscode.Disposable[] {
  const diffs = new DiffViews();
  const mentions = new ContextMentions(new FileMentions(server));
  const services: SessionServices = { server, diffs, mentions, approvals };
  const views = new ConversationViews(context.extensionUri, services);
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return [
    diffs,
    mentions,
    views,
    vscode.window.registerWebviewViewProvider(primaryViewId, views),
    vscode.window.registerWebviewViewProvider(secondaryViewId, views),
    vscode.window.registerWebviewPanelSerializer(panelViewType, views),
    vscode.commands.registerCommand(
      'threadline.openThread',
      (threadId: unknown, turnId: unknown, placement: unknown) =>
        typeof threadId === 'string'
          ? views.open(threadId, text(turnId), isPlacement(placement) ? placement : 'default')
          : undefined,
    ),
    vscode.commands.registerCommand('threadline.focusComposer', () => views.focusComposer()),
    // Internal (not in the palette): other parts (a worktree's "Review All Changes") open a
    // multi-file diff in the same editor as a turn's changes.
    vscode.commands.registerCommand('threadline.showChanges', (cwd: string, diff: string, title: string) =>
      diffs.openTurnChanges(cwd, diff, title),
    ),
    vscode.commands.registerCommand(SHOWN_THREAD, () => views.viewThreadId),
    vscode.commands.registerCommand('threadline.addSelection', () => {
      const selection = mentions.selectionToken(vscode.window.activeTextEditor);
      if (!selection) return vscode.window.showInformationMessage('Select some lines in an editor first.');
      return views.addToComposer(`${selection.insert} `);
    }),
    vscode.commands.registerCommand('threadline.openInEditor', (threadId: unknown) =>
      views.openPanel(text(threadId) ?? views.viewThreadId, vscode.ViewColumn.Active),
    ),
    vscode.commands.registerCommand('threadline.moveConversation', () => views.move()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(OPEN_IN_SETTING)) void views.placementChanged();
    }),
  ];
}

class ConversationViews
  implements vscode.WebviewViewProvider, vscode.WebviewPanelSerializer, vscode.Disposable
{
  /** By view id: the view under Threads and its secondary-side-bar twin (only one is shown at a time). */
  private readonly views = new Map<string, ConversationSession>();
  private pendingThreadId: string | undefined;
  /** The turn to scroll to once the view that is still being created shows its thread. */
  private pendingTurnId: string | undefined;
  private readonly panels = new Map<vscode.WebviewPanel, ConversationSession>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly services: SessionServices,
  ) {}

  /** The session of the Conversation view the setting shows, once that view exists. */
  private get view(): ConversationSession | undefined {
    return this.views.get(shownViewId());
  }

  get viewThreadId(): string | undefined {
    return this.view?.shownThreadId ?? this.pendingThreadId;
  }

  resolveWebviewView(webviewView: vscode.WebviewView): void {
    const viewId = webviewView.viewType;
    const webview = webviewView.webview;
    webview.options = webviewOptions(this.extensionUri);
    webview.html = webviewHtml(webview, this.extensionUri, 'Conversation');
    // A view that appears because the setting moved it takes over the other one's thread.
    const threadId =
      this.pendingThreadId ?? [...this.views.values()].find((s) => s.shownThreadId)?.shownThreadId;
    const session = new ConversationSession(
      webview,
      { kind: 'sidebar', restricted: !vscode.workspace.isTrusted },
      this.services,
      threadId,
      (title) => {
        webviewView.description = title;
      },
    );
    this.views.get(viewId)?.dispose();
    this.views.set(viewId, session);
    if (this.pendingTurnId) session.revealTurn(this.pendingTurnId);
    this.pendingTurnId = undefined;
    session.setVisible(webviewView.visible);
    webviewView.onDidChangeVisibility(() => session.setVisible(webviewView.visible));
    webviewView.onDidDispose(() => {
      session.dispose();
      if (this.views.get(viewId) === session) this.views.delete(viewId);
    });
  }

  /** Opens a thread where `placement` says: the setting's place, or an editor tab (here or beside). */
  async open(threadId: string, turnId: string | undefined, placement: Placement): Promise<void> {
    if (placement === 'side') return this.openPanel(threadId, vscode.ViewColumn.Beside, turnId);
    if (placement === 'editor' || openIn() === 'editor')
      return this.openPanel(threadId, vscode.ViewColumn.Active, turnId);
    return this.showInView(threadId, turnId);
  }

  async showInView(threadId: string, turnId?: string): Promise<void> {
    const view = this.view;
    this.pendingThreadId = threadId;
    this.pendingTurnId = view ? undefined : turnId;
    if (view) await view.show(threadId, turnId);
    await vscode.commands.executeCommand(`${shownViewId()}.focus`);
  }

  /** The setting changed: the Conversation view it names now shows the thread the old one showed. */
  async placementChanged(): Promise<void> {
    if (openIn() === 'editor') return;
    const shown = [...this.views.values()].find((s) => s.shownThreadId)?.shownThreadId;
    if (shown) await this.showInView(shown);
    else await vscode.commands.executeCommand(`${shownViewId()}.focus`);
  }

  /** From anywhere: the Conversation view opens (with no thread: a new one's composer) and takes the focus. */
  async focusComposer(): Promise<void> {
    await vscode.commands.executeCommand(`${shownViewId()}.focus`);
    this.view?.focusComposer();
  }

  /**
   * Where no view container can be contributed to the secondary side bar (VS Code before 1.106), the
   * editor's own Move View picker moves the Conversation view there; VS Code remembers where it put it.
   */
  async move(): Promise<void> {
    // The command takes the view to move (a webview's focus does not count as the focused view).
    await vscode.commands.executeCommand(`${shownViewId()}.focus`);
    await vscode.commands.executeCommand('workbench.action.moveFocusedView', shownViewId());
  }

  /**
   * Appends to the draft of a conversation: one in a visible editor tab if any,
   * else the Conversation view's, which opens; either takes the focus.
   */
  async addToComposer(text: string): Promise<void> {
    const panel = [...this.panels].find(([p]) => p.visible)?.[1];
    if (panel) {
      panel.insertText(text);
      return panel.focusComposer();
    }
    await vscode.commands.executeCommand(`${shownViewId()}.focus`);
    if (!this.view) return;
    this.view.insertText(text);
    this.view.focusComposer();
  }

  async openPanel(threadId: string | undefined, column: vscode.ViewColumn, turnId?: string): Promise<void> {
    if (!threadId) {
      void vscode.window.showInformationMessage('Open a thread first, then open it in an editor tab.');
      return;
    }
    for (const [panel, session] of this.panels) {
      if (session.shownThreadId !== threadId) continue;
      panel.reveal();
      if (turnId) await session.show(threadId, turnId);
      return;
    }
    const panel = vscode.window.createWebviewPanel(panelViewType, 'Threadline', column, {
      ...webviewOptions(this.extensionUri),
      enableFindWidget: true,
    });
    const session = this.attach(panel, threadId);
    if (turnId) session.revealTurn(turnId);
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const threadId = (state as { threadId?: unknown } | undefined)?.threadId;
    panel.webview.options = webviewOptions(this.extensionUri);
    this.attach(panel, typeof threadId === 'string' ? threadId : undefined);
  }

  dispose(): void {
    for (const session of this.views.values()) session.dispose();
    for (const session of this.panels.values()) session.dispose();
  }

  private attach(panel: vscode.WebviewPanel, threadId: string | undefined): ConversationSession {
    const tab = new ThreadTab(
      panel,
      vscode.Uri.joinPath(this.extensionUri, 'media', 'tab'),
      this.services.server,
      this.services.approvals,
    );
    panel.webview.html = webviewHtml(panel.webview, this.extensionUri, 'Threadline');
    const session = new ConversationSession(
      panel.webview,
      { kind: 'panel', restricted: !vscode.workspace.isTrusted },
      this.services,
      threadId,
      (title) => tab.retitle(title),
      (thread) => tab.shown(thread.id, thread.status),
    );
    this.panels.set(panel, session);
    session.setVisible(panel.visible);
    panel.onDidChangeViewState(() => session.setVisible(panel.visible));
    panel.onDidDispose(() => {
      tab.dispose();
      session.dispose();
      this.panels.delete(panel);
    });
    return session;
  }
}
