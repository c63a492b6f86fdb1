// The conversation's places in the editor: the "Conversation" view under Threads (the thread opened
// last) and any number of editor tabs ("Open in Editor"), which come back after a reload through the
// panel serializer. `threadline.openThread` is what the Threads tree's Open runs.
import * as vscode from 'vscode';
import type { PendingApprovals } from '../approvals/pendingApprovals';
import type { ThreadlineServer } from '../server/threadlineServer';
import { ConversationSession, type SessionServices } from './conversationSession';
import { DiffViews } from './diffViews';
import { ContextMentions } from './contextMentions';
import { FileMentions } from './fileMentions';
import { webviewHtml, webviewOptions } from './webviewHtml';

export const conversationViewId = 'threadline.conversation';
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
  return [
    diffs,
    mentions,
    views,
    vscode.window.registerWebviewViewProvider(conversationViewId, views),
    vscode.window.registerWebviewPanelSerializer(panelViewType, views),
    vscode.commands.registerCommand('threadline.openThread', (threadId: unknown, turnId: unknown) =>
      typeof threadId === 'string'
        ? views.showInView(threadId, typeof turnId === 'string' ? turnId : undefined)
        : undefined,
    ),
    vscode.commands.registerCommand('threadline.focusComposer', () => views.focusComposer()),
    vscode.commands.registerCommand('threadline.addSelection', () => {
      const selection = mentions.selectionToken(vscode.window.activeTextEditor);
      if (!selection) return vscode.window.showInformationMessage('Select some lines in an editor first.');
      return views.addToComposer(`${selection.insert} `);
    }),
    vscode.commands.registerCommand('threadline.openInEditor', (threadId: unknown) =>
      views.openPanel(typeof threadId === 'string' ? threadId : views.viewThreadId),
    ),
  ];
}

class ConversationViews
  implements vscode.WebviewViewProvider, vscode.WebviewPanelSerializer, vscode.Disposable
{
  private view: ConversationSession | undefined;
  private pendingThreadId: string | undefined;
  /** The turn to scroll to once the view that is still being created shows its thread. */
  private pendingTurnId: string | undefined;
  private readonly panels = new Map<vscode.WebviewPanel, ConversationSession>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly services: SessionServices,
  ) {}

  get viewThreadId(): string | undefined {
    return this.view?.shownThreadId ?? this.pendingThreadId;
  }

  resolveWebviewView(webviewView: vscode.WebviewView): void {
    const webview = webviewView.webview;
    webview.options = webviewOptions(this.extensionUri);
    webview.html = webviewHtml(webview, this.extensionUri, 'Conversation');
    const session = new ConversationSession(
      webview,
      { kind: 'sidebar', restricted: !vscode.workspace.isTrusted },
      this.services,
      this.pendingThreadId,
      (title) => {
        webviewView.description = title;
      },
    );
    this.view = session;
    if (this.pendingTurnId) session.revealTurn(this.pendingTurnId);
    this.pendingTurnId = undefined;
    session.setVisible(webviewView.visible);
    webviewView.onDidChangeVisibility(() => session.setVisible(webviewView.visible));
    webviewView.onDidDispose(() => {
      session.dispose();
      if (this.view === session) this.view = undefined;
    });
  }

  async showInView(threadId: string, turnId?: string): Promise<void> {
    this.pendingThreadId = threadId;
    this.pendingTurnId = this.view ? undefined : turnId;
    if (this.view) await this.view.show(threadId, turnId);
    await vscode.commands.executeCommand(`${conversationViewId}.focus`);
  }

  /** From anywhere: the Conversation view opens (with no thread: a new one's composer) and takes the focus. */
  async focusComposer(): Promise<void> {
    await vscode.commands.executeCommand(`${conversationViewId}.focus`);
    this.view?.focusComposer();
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
    await vscode.commands.executeCommand(`${conversationViewId}.focus`);
    if (!this.view) return;
    this.view.insertText(text);
    this.view.focusComposer();
  }

  async openPanel(threadId: string | undefined): Promise<void> {
    if (!threadId) {
      void vscode.window.showInformationMessage('Open a thread first, then open it in an editor tab.');
      return;
    }
    for (const [panel, session] of this.panels) {
      if (session.shownThreadId === threadId) return panel.reveal();
    }
    const panel = vscode.window.createWebviewPanel(panelViewType, 'Threadline', vscode.ViewColumn.Active, {
      ...webviewOptions(this.extensionUri),
      enableFindWidget: true,
    });
    this.attach(panel, threadId);
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const threadId = (state as { threadId?: unknown } | undefined)?.threadId;
    panel.webview.options = webviewOptions(this.extensionUri);
    this.attach(panel, typeof threadId === 'string' ? threadId : undefined);
  }

  dispose(): void {
    this.view?.dispose();
    for (const session of this.panels.values()) session.dispose();
  }

  private attach(panel: vscode.WebviewPanel, threadId: string | undefined): void {
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'threadline.svg');
    panel.webview.html = webviewHtml(panel.webview, this.extensionUri, 'Threadline');
    const session = new ConversationSession(
      panel.webview,
      { kind: 'panel', restricted: !vscode.workspace.isTrusted },
      this.services,
      threadId,
      (title) => {
        panel.title = title;
      },
    );
    this.panels.set(panel, session);
    session.setVisible(panel.visible);
    panel.onDidChangeViewState(() => session.setVisible(panel.visible));
    panel.onDidDispose(() => {
      session.dispose();
      this.panels.delete(panel);
    });
  }
}
