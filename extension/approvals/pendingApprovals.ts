// The one registry of the requests the server is waiting on the user for, across every thread: command
// and file-change approvals and the agent's questions. Every part of the UI that shows or answers them
// (the conversation view's cards, the diff editor's title actions, notifications, the status bar) reads
// and answers through it, so each request is answered once, wherever that happens.
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { isWithin } from '../../server/fs/pathRules';
import type { RequestId } from '../../server/protocol/serverRequests';
import { Emitter } from '../../webview/common/emitter';
import { Disposable, toDisposable, type IDisposable } from '../../webview/common/lifecycle';
import { RefCounts } from '../../webview/common/refCounts';
import type {
  PromptKind,
  PromptParams,
  PromptRequests,
  PromptResult,
  PromptResultOf,
  PromptView,
} from '../../webview/messages';
import type { ThreadlineServer } from '../server/threadlineServer';
import { DISTRUST_ANSWER, PROJECT_SERVER_TRUST_QUESTION } from '../../server/protocol/mcpTrust';
import { PromptLedger, type LedgerChange, type PromptOutcome } from './promptLedger';

export type { PromptOutcome } from './promptLedger';
export type { PromptKind, PromptResultOf } from '../../webview/messages';

const methods: PromptRequests = {
  commandExecution: 'item/commandExecution/requestApproval',
  fileChange: 'item/fileChange/requestApproval',
  userInput: 'item/tool/requestUserInput',
};

/** A waiting prompt: exactly what the conversation view's cards are sent. */
export type PendingPrompt = PromptView;
export type PromptChange = LedgerChange<PendingPrompt>;
/** What the Threads tree knows of a thread. */
export interface ThreadLookup {
  titleOf(threadId: string): string | undefined;
  folderOf(threadId: string): string | undefined;
}
/** Rewrites an answer before it is sent (see reviseAnswers). */
export type AnswerReviser = (prompt: PendingPrompt, result: PromptResult) => PromptResult;

export class PendingApprovals extends Disposable {
  private readonly changes = this._register(new Emitter<PromptChange>());
  readonly onDidChange = this.changes.event;
  private readonly ledger = new PromptLedger<PendingPrompt>((change) => this.changes.fire(change));
  private readonly hidden = this._register(new Emitter<string>());
  /** The last view that showed this thread's prompts was hidden (or moved to another thread). */
  readonly onDidHideThread = this.hidden.event;
  private readonly shown = this._register(new Emitter<string>());
  /** A view that shows this thread became visible (the thread may have been shown already). */
  readonly onDidShowThread = this.shown.event;
  /** Threads whose prompts some visible view shows, with how many views. */
  private readonly visible = new RefCounts<string>((threadId) => this.hidden.fire(threadId));
  private reviser: AnswerReviser | undefined;

  constructor(
    server: ThreadlineServer,
    /** The thread's title and folder as the tree knows them, when it knows the thread. */
    private readonly threads: ThreadLookup = { titleOf: () => undefined, folderOf: () => undefined },
  ) {
    super();
    this.handle(server, 'commandExecution');
    this.handle(server, 'fileChange');
    this.handle(server, 'userInput');
    this._registerAll(
      server.onNotification('serverRequest/resolved', ({ requestId }) =>
        this.ledger.settle(String(requestId), { resolvedElsewhere: true }),
      ),
      server.onNotification('turn/completed', ({ threadId, turn }) =>
        this.ledger.settleTurn(threadId, turn.id, `turn ${turn.status}`),
      ),
      // The requests of a server that stopped died with its connection.
      server.onStateChange((state) => {
        if (state !== 'ready')
          this.ledger.settleAll(`the server ${state === 'failed' ? 'failed' : 'restarted'}`);
      }),
    );
  }

  /** Waiting prompts, oldest first; of one thread when given. */
  list(threadId?: string): PendingPrompt[] {
    return this.ledger.list(threadId);
  }

  get(key: string): PendingPrompt | undefined {
    return this.ledger.get(key);
  }

  /** Sends the answer; false when the prompt was already answered or settled (the first answer wins). */
  answer(key: string, result: PromptResult): boolean {
    const prompt = this.ledger.get(key);
    if (!prompt) return false;
    return this.ledger.settle(key, { answered: this.reviser ? this.reviser(prompt, result) : result });
  }

  /**
   * Lets the file-change review turn an accept into what the user really approved (the proposal as
   * they edited it in the diff editor), whichever part of the UI sent the accept.
   */
  reviseAnswers(reviser: AnswerReviser): IDisposable {
    this.reviser = reviser;
    return toDisposable(() => {
      if (this.reviser === reviser) this.reviser = undefined;
    });
  }

  /**
   * A view that shows a thread's prompts is visible (the conversation view calls it, and disposes the
   * result when it is hidden or shows another thread). Prompts of threads nobody shows get a
   * notification.
   */
  markVisible(threadId: string): IDisposable {
    const kept = this.visible.keep(threadId);
    this.shown.fire(threadId);
    return kept;
  }

  /**
   * Which thread asks, ` in “title”`, when it is not the one in view (several threads run at once,
   * worktree threads among them); else empty.
   */
  askingThread(threadId: string): string {
    if (this.isVisible(threadId)) return '';
    const title = this.threads.titleOf(threadId);
    return title ? ` in “${title}”` : '';
  }

  /**
   * A file of a thread's request as the user knows it: relative to the workspace, else to the thread's
   * own folder (a worktree lives outside the workspace), else in full.
   */
  shownPath(threadId: string, path: string): string {
    const inWorkspace = vscode.workspace.asRelativePath(path, false);
    if (inWorkspace !== path) return inWorkspace;
    const folder = this.threads.folderOf(threadId);
    if (!folder || !isWithin(folder, path)) return path;
    return nodePath.relative(folder, path).split(nodePath.sep).join('/') || path;
  }

  /** Whether the user can see this thread's prompts right now. */
  isVisible(threadId: string): boolean {
    return vscode.window.state.focused && this.visible.has(threadId);
  }

  override dispose(): void {
    this.ledger.settleAll('Threadline is shutting down');
    super.dispose();
  }

  private handle<K extends PromptKind>(server: ThreadlineServer, kind: K): void {
    this._register(server.handleServerRequest(methods[kind], (params, id) => this.ask(kind, params, id)));
  }

  private async ask<K extends PromptKind>(
    kind: K,
    params: PromptParams<K>,
    id: RequestId,
  ): Promise<PromptResultOf<K>> {
    if (kind === 'userInput' && !vscode.workspace.isTrusted) {
      const declined = declineProjectServer(params as PromptParams<'userInput'>);
      if (declined) return declined as PromptResultOf<K>;
    }
    const { threadId, turnId, itemId } = params;
    const prompt = { key: String(id), kind, threadId, turnId, itemId, params, receivedAt: Date.now() };
    const outcome: PromptOutcome = await this.ledger.add(prompt as PendingPrompt);
    // The answer comes from the card of this prompt's kind (or the reviser of its kind's accept).
    if ('answered' in outcome) return outcome.answered as PromptResultOf<K>;
    // Nobody waits for this answer any more; an error says so if the server still listens.
    throw new Error('cancelled' in outcome ? `not answered: ${outcome.cancelled}` : 'answered elsewhere');
  }
}

/**
 * In Restricted Mode a project's own MCP servers never start: the question whether to trust one is
 * answered "Not now" without being shown (a folder the user has not trusted cannot ask for more).
 */
function declineProjectServer(params: PromptParams<'userInput'>): PromptResultOf<'userInput'> | null {
  if (!params.questions.some((q) => q.id === PROJECT_SERVER_TRUST_QUESTION)) return null;
  return { answers: { [PROJECT_SERVER_TRUST_QUESTION]: { answers: [DISTRUST_ANSWER] } } };
}
