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
  private readonly controller = vscode.comments.createCommentController(
    answerBarController,
    'Threadline approvals',
  );
  private readonly threads = new Map<string, vscode.CommentThread[]>();

  constructor() {
    super();
    // The editor shows a controller's threads once it knows the controller comments somewhere; no new
    // comments are taken anywhere (no ranges), the threads are the bar.
    this.controller.commentingRangeProvider = { provideCommentingRanges: () => [] };
    this._registerAll(
      this.controller,
      toDisposable(() => this.threads.clear()),
    );
  }

  /** Shows the bar on the first line of each proposed side of a request. */
  show(key: string, proposed: vscode.Uri[], title: string): void {
    this.hide(key);
    this.threads.set(
      key,
      proposed.map((uri) => {
        const thread = this.controller.createCommentThread(uri, new vscode.Range(0, 0, 0, 0), [
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
  }
}

/** What the bar says: the proposal is editable, and the keys of its answers. */
function barText(): string {
  const keys = fileAnswers.map((kind) => `${diffKeyOf(kind)} ${answerLooks[kind].label}`).join(' · ');
  return `Edit the proposal on the right if you like, then answer. Keys: ${keys}`;
}
