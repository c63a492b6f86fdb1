// The answer bar of a proposed change in the diff editor: a comment thread under the first line of the
// proposed side, whose buttons are the title bar's commands with the cards' labels (Accept, Accept for
// session, Decline, Cancel turn; the `comments/commentThread/additionalActions` menu) and whose text
// names the keys. A comment thread is the editor API that shows labelled, focusable actions inside a
// diff editor; CodeLens is off there by default (`diffEditor.codeLens`).
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../webview/common/lifecycle';
import { answerLooks, keyName, type AnswerKind } from '../../webview/prompts/answers';

export const answerBarController = 'threadline-approvals';

/** The answers a file change allows, in the cards' order. */
const fileAnswers: AnswerKind[] = ['accept', 'acceptForSession', 'decline', 'cancel'];

/** In the diff editor the text is editable, so each card key is held with Alt (package.json keybindings). */
export function diffKeyOf(kind: AnswerKind): string {
  const key = keyName(answerLooks[kind].shortcut);
  return `${process.platform === 'darwin' ? '⌥' : 'Alt+'}${key}`;
}

export class DiffAnswerBar extends Disposable {
  /**
   * Made while a proposal is pending, gone otherwise: the editor asks a commenting range provider about
   * every document it opens, settings.json included, and that races with the editor's own writes of it
   * (its "unknown document" errors while a theme is saved).
   */
  private controller: vscode.CommentController | undefined;
  private readonly threads = new Map<string, vscode.CommentThread[]>();

  constructor() {
    super();
    this._register(
      toDisposable(() => {
        this.threads.clear();
        this.controller?.dispose();
      }),
    );
  }

  private openController(): vscode.CommentController {
    if (this.controller) return this.controller;
    const controller = vscode.comments.createCommentController(answerBarController, 'Threadline approvals');
    // The editor shows a controller's threads once it knows the controller comments somewhere; no new
    // comments are taken anywhere (no ranges), the threads are the bar.
    controller.commentingRangeProvider = { provideCommentingRanges: () => [] };
    return (this.controller = controller);
  }

  /** Shows the bar on the first line of each proposed side of a request. */
  show(key: string, proposed: vscode.Uri[], title: string): void {
    this.hide(key);
    this.threads.set(
      key,
      proposed.map((uri) => {
        const thread = this.openController().createCommentThread(uri, new vscode.Range(0, 0, 0, 0), [
          {
            body: new vscode.MarkdownString(barText()),
            mode: vscode.CommentMode.Preview,
            author: { name: 'Threadline' },
          },
        ]);
        thread.label = title;
        thread.canReply = false;
        thread.contextValue = 'threadline.pendingChange';
        thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
        return thread;
      }),
    );
  }

  hide(key: string): void {
    for (const thread of this.threads.get(key) ?? []) thread.dispose();
    this.threads.delete(key);
    if (this.threads.size > 0) return;
    this.controller?.dispose();
    this.controller = undefined;
  }
}

/** What the bar says: the proposal is editable, and the keys of its answers. */
function barText(): string {
  const keys = fileAnswers.map((kind) => `${diffKeyOf(kind)} ${answerLooks[kind].label}`).join(' · ');
  return `Edit the proposal on the right if you like, then answer. Keys: ${keys}`;
}
