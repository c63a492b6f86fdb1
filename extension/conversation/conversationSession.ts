// One webview (the Conversation view or an editor panel) showing one thread: answers the webview's
// requests with server calls, feeds it the thread's snapshot and numbered deltas, and opens links,
// files and diffs with the editor's own handling.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type {
  HostMessage,
  HostRequestName,
  HostRequests,
  ThreadSnapshot,
  TurnOverrides,
  ViewContext,
  WebviewMessage,
} from '../../webview/messages';
import { Disposable, type IDisposable } from '../../webview/common/lifecycle';
import { threadTitle } from '../../webview/common/threadTitle';
import type { ThreadlineServer } from '../server/threadlineServer';
import { turnOverrides, withinTrust } from '../settings/overrides';
import { readSettings } from '../settings/settings';
import type { DiffViews } from './diffViews';
import { composerRequests } from './composerRequests';
import type { ContextMentions } from './contextMentions';
import { startInfo, startThread } from './newThread';
import { replaceLastTurn } from './resendEdited';
import { PromptFeed, type PromptRegistry } from './promptFeed';
import { slashRequests } from './slashRequests';
import { ThreadFeed } from './threadFeed';
import { supportsTurnChanges, TurnChanges } from './turnChanges';
import { SHOW_IN_TERMINAL } from '../terminal/commandTerminals';

export interface SessionServices {
  server: ThreadlineServer;
  diffs: DiffViews;
  mentions: ContextMentions;
  approvals: PromptRegistry;
}

type Handlers = {
  [N in HostRequestName]: (params: HostRequests[N]['params']) => Promise<HostRequests[N]['result']>;
};

export class ConversationSession extends Disposable {
  private feed: ThreadFeed | undefined;
  /** Keeps the shown thread loaded in the server across its restarts. */
  private kept: IDisposable | undefined;
  private ready = false;
  /** Focus Composer was asked for before the webview listened: it is told once it is ready. */
  private focusWhenReady = false;
  /** Text for the composer ("Add Selection to Threadline") from before the webview listened. */
  private textWhenReady: string[] = [];
  private readonly handlers: Handlers;
  private readonly prompts: PromptFeed;
  private readonly turnChanges: TurnChanges;
  private revealTurnId: string | undefined;
  /** The view shows the server's failure: the server running again reloads it. */
  private showsFailure = false;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly context: ViewContext,
    private readonly services: SessionServices,
    /** The thread to show once the webview is ready (a restored panel knows it before). */
    private threadId: string | undefined,
    /** Told the shown thread's title after each snapshot (a panel shows it on its tab). */
    private readonly onTitle: (title: string) => void = () => {},
    /** Told the shown thread as each snapshot reads it (a panel's tab follows its status from there). */
    private readonly onShown: (thread: ThreadSnapshot['thread']) => void = () => {},
  ) {
    super();
    this.handlers = this.requestHandlers();
    this.prompts = this._register(new PromptFeed(services.approvals, (m) => this.post(m)));
    this.turnChanges = new TurnChanges(services.server, services.diffs);
    this._registerAll(
      webview.onDidReceiveMessage((message: WebviewMessage) => void this.receive(message)),
      // After a restart the server resumes the shown thread (keepSubscribed); the view reads it again,
      // where a turn that was running when the server died now shows as interrupted.
      // Trusting the folder lifts Restricted Mode at once: the view drops its notice.
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.context.restricted = false;
        if (this.ready) void this.load();
      }),
      // A server that stopped for good is said in the view; once it runs again the view loads afresh.
      services.server.onStateChange((state, detail) => {
        if (!this.ready) return;
        if (state === 'failed') this.postFailure(detail);
        else if (state === 'ready' && this.showsFailure) void this.load();
      }),
      services.server.onResubscribed((resumed) => {
        if (resumed.thread.id === this.feed?.threadId)
          void this.feed.snapshot(resumed).catch((e: Error) => this.showError(e));
      }),
    );
  }

  get shownThreadId(): string | undefined {
    return this.threadId;
  }

  /** Switches the view to another thread (the tree's Open, New Thread), scrolled to `turnId` if given. */
  async show(threadId: string, turnId?: string): Promise<void> {
    this.threadId = threadId;
    this.revealTurnId = turnId;
    if (this.ready) await this.load();
  }

  /** Scrolls to this turn once the thread is shown (a search result picked before the view existed). */
  revealTurn(turnId: string): void {
    this.revealTurnId = turnId;
  }

  /** Whether the user can see this view (its prompts need no notification then). */
  setVisible(visible: boolean): void {
    this.prompts.setVisible(visible);
    // The recent threads may have changed while the view was hidden.
    if (visible && this.ready && !this.threadId) void this.load();
  }

  /** Appends to the composer's draft (an `@` token from an editor command). */
  insertText(text: string): void {
    if (this.ready) this.post({ type: 'insertText', text });
    else this.textWhenReady.push(text);
  }

  /** The Focus Composer keybinding: the webview puts the focus into its composer. */
  focusComposer(): void {
    if (this.ready) this.post({ type: 'focusComposer' });
    else this.focusWhenReady = true;
  }

  override dispose(): void {
    super.dispose();
    this.feed?.dispose();
    this.kept?.dispose();
  }

  private post(message: HostMessage): void {
    void this.webview.postMessage(message);
  }

  private async receive(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.threadId ??= message.threadId;
        await this.load();
        for (const text of this.textWhenReady.splice(0)) this.post({ type: 'insertText', text });
        if (this.focusWhenReady) this.post({ type: 'focusComposer' });
        this.focusWhenReady = false;
        return;
      case 'resync':
        if (message.threadId === this.feed?.threadId)
          await this.feed.snapshot().catch((e: Error) => this.showError(e));
        return;
      case 'request':
        return this.answer(message.id, message.name, message.params);
      case 'openLink':
        return this.openLink(message.href);
      case 'openFile':
        await vscode.commands.executeCommand('vscode.open', this.resolve(message.path));
        return;
      case 'openFileDiff':
        return this.services.diffs.openFileDiff(
          this.cwd(),
          message.path,
          message.kind,
          message.diff,
          message.movePath,
        );
      case 'openTurnChanges':
      case 'undoTurnChanges': {
        const threadId = this.feed?.threadId;
        if (!threadId) return;
        const work =
          message.type === 'openTurnChanges'
            ? this.turnChanges.review(threadId, message.turnId, this.cwd(), message.diff)
            : this.turnChanges.undo(threadId, message.turnId, this.cwd());
        return work.catch((error: Error) => {
          void vscode.window.showErrorMessage(`Threadline: ${error.message}`);
        });
      }
      case 'openInEditor':
        await vscode.commands.executeCommand('threadline.openInEditor', message.threadId);
        return;
      case 'answerPrompt':
        return this.prompts.answer(message.key, message.result);
      case 'openThread':
        // A recent thread picked in the side bar opens where the user's setting says (maybe a tab).
        if (this.context.kind === 'sidebar') {
          await vscode.commands.executeCommand('threadline.openThread', message.threadId);
          return;
        }
        return this.show(message.threadId);
      case 'showLog':
        this.services.server.log.show();
        return;
      case 'restartServer':
        await vscode.commands
          .executeCommand('threadline.restartServer')
          .then(undefined, (e: Error) => this.showError(e));
        return;
      case 'showInTerminal':
        await vscode.commands.executeCommand(SHOW_IN_TERMINAL, message.threadId, message.item);
        return;
      case 'manageTrust':
        await vscode.commands.executeCommand('workbench.trust.manage');
        return;
      case 'runCommand':
        await vscode.commands.executeCommand(`threadline.${message.command}`);
        return;
      case 'openPromptDiff':
        await vscode.commands
          .executeCommand('threadline.approval.openDiff', message.key)
          .then(undefined, (e: Error) => this.showError(e));
        return;
    }
  }

  private postFailure(detail: string | undefined): void {
    this.showsFailure = true;
    const reason = detail ?? this.services.server.failure ?? 'It exited and was not restarted.';
    this.post({ type: 'serverFailed', reason, context: this.context });
  }

  /** After a failed load: the server's failure when that is why, else `otherwise`. */
  private failedLoad(otherwise: () => void): void {
    if (this.services.server.state === 'failed') this.postFailure(undefined);
    else otherwise();
  }

  private async load(): Promise<void> {
    this.showsFailure = false;
    this.feed?.dispose();
    this.feed = undefined;
    this.kept?.dispose();
    this.kept = this.threadId ? this.services.server.keepSubscribed(this.threadId) : undefined;
    if (!this.threadId) {
      this.prompts.show(undefined);
      let failed = false;
      const start = await startInfo(this.services.server).catch((error: Error) => {
        this.showError(error);
        failed = true;
        return undefined;
      });
      // A thread opened while the list was read wins.
      if (this.threadId) return;
      if (failed) this.failedLoad(() => this.post({ type: 'empty', context: this.context }));
      else this.post({ type: 'empty', context: this.context, start });
      return;
    }
    this.context.turnChanges = supportsTurnChanges(this.services.server);
    this.feed = new ThreadFeed(this.services.server, this.threadId, (m) => this.post(m), this.context);
    this.feed.onSnapshot = (thread) => {
      this.onTitle(threadTitle(thread));
      this.onShown(thread);
      // After every snapshot (open, resync, restart): the webview takes prompts of the thread it shows.
      this.prompts.show(thread.id);
    };
    this.feed.onRetitle = (title) => this.onTitle(threadTitle(title));
    try {
      await this.feed.snapshot();
      if (this.revealTurnId)
        this.post({ type: 'revealTurn', threadId: this.threadId, turnId: this.revealTurnId });
      this.revealTurnId = undefined;
    } catch (error) {
      this.prompts.show(undefined);
      this.failedLoad(() =>
        this.post({
          type: 'empty',
          context: this.context,
          reason: `Could not open the thread: ${(error as Error).message}`,
        }),
      );
    }
  }

  private async answer(id: number, name: HostRequestName, params: unknown): Promise<void> {
    try {
      const handler = this.handlers[name] as ((p: unknown) => Promise<unknown>) | undefined;
      if (!handler) throw new Error(`Unknown request ${String(name)}`);
      this.post({ type: 'response', id, result: await handler(params) });
    } catch (error) {
      this.post({ type: 'response', id, error: error instanceof Error ? error.message : String(error) });
    }
  }

  private requestHandlers(): Handlers {
    const server = this.services.server;
    return {
      startTurn: async ({ threadId, input, overrides }) => {
        const { turn } = await server.request('turn/start', {
          threadId,
          input,
          ...this.turnSettings(overrides),
        });
        return { turnId: turn.id };
      },
      steerTurn: ({ threadId, turnId, input }) =>
        server.request('turn/steer', { threadId, expectedTurnId: turnId, input }),
      interruptTurn: async ({ threadId, turnId }) => {
        await server.request('turn/interrupt', { threadId, turnId });
        return {};
      },
      loadOlderTurns: async () => ({ loaded: (await this.feed?.loadOlder()) ?? 0 }),
      loadEarlierItems: async ({ turnId, beforeItemId }) => ({
        loaded: (await this.feed?.loadEarlierItems(turnId, beforeItemId)) ?? 0,
      }),
      startThread: async ({ input, overrides }) => {
        const threadId = await startThread(server, input, this.turnSettings(overrides));
        await this.show(threadId);
        return { threadId };
      },
      resendEdited: async ({ threadId, turnId, input, overrides }) => {
        const turn = await replaceLastTurn(
          server,
          threadId,
          turnId,
          input,
          this.turnSettings(overrides),
          () => (threadId === this.feed?.threadId ? this.feed.snapshot() : Promise.resolve()),
        );
        return { turnId: turn };
      },
      ...composerRequests(server, this.services.mentions, () => this.cwd()),
      ...slashRequests(server, () => this.cwd()),
    };
  }

  /** The user's settings, with the composer's choices for this turn on top. */
  private turnSettings(overrides: TurnOverrides) {
    const settings = readSettings();
    const chosen = {
      ...settings,
      model: overrides.model ?? settings.model,
      reasoningEffort: overrides.effort ?? settings.reasoningEffort,
      approvalPolicy: overrides.approvalPolicy ?? settings.approvalPolicy,
      sandboxMode: overrides.sandbox ?? settings.sandboxMode,
    };
    const mode = overrides.mode;
    return {
      ...turnOverrides(withinTrust(chosen, vscode.workspace.isTrusted)),
      ...(mode ? { collaborationMode: { mode: mode.mode, settings: { model: mode.model } } } : {}),
    };
  }

  /** Web links go through the editor's opener (it asks about untrusted domains); paths open as files. */
  private async openLink(href: string): Promise<void> {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
    if (scheme === 'http' || scheme === 'https' || scheme === 'mailto') {
      await vscode.env.openExternal(vscode.Uri.parse(href, true));
    } else if (!scheme || scheme === 'file') {
      const [file, line] = href.replace(/^file:\/\//, '').split('#L');
      const uri = this.resolve(decodeURIComponent(file));
      const selection =
        Number(line) > 0 ? new vscode.Range(Number(line) - 1, 0, Number(line) - 1, 0) : undefined;
      await vscode.window.showTextDocument(uri, selection ? { selection } : {});
    } else {
      this.services.server.log.warn(`not opening a link with scheme ${scheme}`);
    }
  }

  private cwd(): string {
    return this.feed?.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
  }

  private resolve(file: string): vscode.Uri {
    return vscode.Uri.file(path.isAbsolute(file) ? file : path.join(this.cwd(), file));
  }

  private showError(error: Error): void {
    this.services.server.log.error(`conversation view: ${error.message}`);
  }
}
