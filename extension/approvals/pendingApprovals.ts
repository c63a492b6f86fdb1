// The one registry of the requests the server is waiting on the user for, across every thread: command
// and file-change approvals and the agent's questions. Every part of the UI that shows or answers them
// (the conversation view's cards, the diff editor's title actions, notifications, the status bar) reads
// and answers through it, so each request is answered once, wherever that happens.
import * as vscode from 'vscode';
import type { RequestId, ServerRequestParamsOf } from '../../server/protocol/serverRequests';
import type { ServerRequestResultOf, ThreadlineServer } from '../server/threadlineServer';
import { DISTRUST_ANSWER, PROJECT_SERVER_TRUST_QUESTION } from '../../server/protocol/mcpTrust';
import { PromptLedger, type LedgerChange, type PromptOutcome } from './promptLedger';

export type { PromptOutcome } from './promptLedger';

const methods = {
  commandExecution: 'item/commandExecution/requestApproval',
  fileChange: 'item/fileChange/requestApproval',
  userInput: 'item/tool/requestUserInput',
} as const;

export type PromptKind = keyof typeof methods;
export type PromptParams<K extends PromptKind> = ServerRequestParamsOf<(typeof methods)[K]>;
/** What answers a prompt of that kind (the schema's result of its request). */
export type PromptResult<K extends PromptKind> = ServerRequestResultOf<(typeof methods)[K]>;

interface PromptOf<K extends PromptKind> {
  /** String(JSON-RPC request id): unique while one server runs. */
  key: string;
  kind: K;
  threadId: string;
  turnId: string;
  itemId: string;
  params: PromptParams<K>;
  /** Date.now() when the request arrived. */
  receivedAt: number;
}
export type PendingPrompt = { [K in PromptKind]: PromptOf<K> }[PromptKind];
export type PromptChange = LedgerChange<PendingPrompt>;
/** Rewrites an answer before it is sent (see reviseAnswers). */
export type AnswerReviser = (prompt: PendingPrompt, result: unknown) => unknown;

export class PendingApprovals implements vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<PromptChange>();
  readonly onDidChange = this.changes.event;
  private readonly ledger = new PromptLedger<PendingPrompt>((change) => this.changes.fire(change));
  private readonly disposables: vscode.Disposable[] = [];
  /** Threads whose prompts some visible view shows, with how many views. */
  private readonly visible = new Map<string, number>();
  private readonly hidden = new vscode.EventEmitter<string>();
  /** The last view that showed this thread's prompts was hidden (or moved to another thread). */
  readonly onDidHideThread = this.hidden.event;
  private reviser: AnswerReviser | undefined;

  constructor(server: ThreadlineServer) {
    for (const kind of Object.keys(methods) as PromptKind[]) {
      this.disposables.push(
        server.handleServerRequest(methods[kind], (params, id) => this.ask(kind, params, id)),
      );
    }
    this.disposables.push(
      this.changes,
      this.hidden,
      server.onNotification('serverRequest/resolved', ({ requestId }) =>
        this.ledger.settle(String(requestId), { resolvedElsewhere: true }),
      ),
      server.onNotification('turn/completed', ({ threadId, turn }) =>
        this.ledger.settleTurn(threadId, turn.id, `the turn ended (${turn.status})`),
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
  answer<K extends PromptKind>(key: string, result: PromptResult<K>): boolean {
    const prompt = this.ledger.get(key);
    if (!prompt) return false;
    return this.ledger.settle(key, { answered: this.reviser ? this.reviser(prompt, result) : result });
  }

  /**
   * Lets the file-change review turn an accept into what the user really approved (the proposal as
   * they edited it in the diff editor), whichever part of the UI sent the accept.
   */
  reviseAnswers(reviser: AnswerReviser): vscode.Disposable {
    this.reviser = reviser;
    return new vscode.Disposable(() => {
      if (this.reviser === reviser) this.reviser = undefined;
    });
  }

  /**
   * A view that shows a thread's prompts is visible (the conversation view calls it, and disposes the
   * result when it is hidden or shows another thread). Prompts of threads nobody shows get a
   * notification.
   */
  markVisible(threadId: string): vscode.Disposable {
    this.visible.set(threadId, (this.visible.get(threadId) ?? 0) + 1);
    return new vscode.Disposable(() => {
      const count = (this.visible.get(threadId) ?? 1) - 1;
      if (count > 0) this.visible.set(threadId, count);
      else if (this.visible.delete(threadId)) this.hidden.fire(threadId);
    });
  }

  /** Whether the user can see this thread's prompts right now. */
  isVisible(threadId: string): boolean {
    return vscode.window.state.focused && this.visible.has(threadId);
  }

  dispose(): void {
    this.ledger.settleAll('Threadline is shutting down');
    for (const d of this.disposables) d.dispose();
  }

  private async ask<K extends PromptKind>(
    kind: K,
    params: PromptParams<K>,
    id: RequestId,
  ): Promise<PromptResult<K>> {
    if (kind === 'userInput' && !vscode.workspace.isTrusted) {
      const declined = declineProjectServer(params as PromptParams<'userInput'>);
      if (declined) return declined as PromptResult<K>;
    }
    const { threadId, turnId, itemId } = params;
    const prompt = { key: String(id), kind, threadId, turnId, itemId, params, receivedAt: Date.now() };
    const outcome: PromptOutcome = await this.ledger.add(prompt as PendingPrompt);
    if ('answered' in outcome) return outcome.answered as PromptResult<K>;
    // Nobody waits for this answer any more; an error says so if the server still listens.
    throw new Error('cancelled' in outcome ? `not answered: ${outcome.cancelled}` : 'answered elsewhere');
  }
}

/**
 * In Restricted Mode a project's own MCP servers never start: the question whether to trust one is
 * answered "Not now" without being shown (a folder the user has not trusted cannot ask for more).
 */
function declineProjectServer(params: PromptParams<'userInput'>): PromptResult<'userInput'> | null {
  if (!params.questions.some((q) => q.id === PROJECT_SERVER_TRUST_QUESTION)) return null;
  return { answers: { [PROJECT_SERVER_TRUST_QUESTION]: { answers: [DISTRUST_ANSWER] } } };
}
