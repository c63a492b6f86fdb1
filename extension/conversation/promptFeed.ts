// What one conversation view sees of the pending prompts (approvals, questions): the shown thread's
// list after each snapshot and on every change, each settled prompt's outcome before the list that no
// longer has it, and the answers the view gives, routed to the registry, which takes the first answer
// only (a late second answer is dropped without a word: the view already shows how the prompt ended).
import { Disposable, type IDisposable } from '../../webview/common/lifecycle';
import type { HostMessage, PromptResult } from '../../webview/messages';
import type { PendingApprovals } from '../approvals/pendingApprovals';

export type PromptRegistry = Pick<
  PendingApprovals,
  'onDidChange' | 'list' | 'get' | 'answer' | 'markVisible'
>;

export class PromptFeed extends Disposable {
  private threadId: string | undefined;
  private visible = false;
  private mark: IDisposable | undefined;

  constructor(
    private readonly registry: PromptRegistry,
    private readonly post: (message: HostMessage) => void,
  ) {
    super();
    this._register(
      registry.onDidChange((change) => {
        const prompt = change.added ?? change.settled?.prompt;
        if (!prompt || prompt.threadId !== this.threadId) return;
        if (change.settled)
          this.post({
            type: 'promptSettled',
            threadId: prompt.threadId,
            key: prompt.key,
            outcome: change.settled.outcome,
          });
        this.sendList();
      }),
    );
  }

  /** The view shows this thread now (after its snapshot was posted): its prompts follow. */
  show(threadId: string | undefined): void {
    if (threadId !== this.threadId) {
      this.threadId = threadId;
      this.updateMark();
    }
    this.sendList();
  }

  /** Whether the user can see the view: a thread's prompts nobody sees are notified elsewhere. */
  setVisible(visible: boolean): void {
    this.visible = visible;
    this.updateMark();
  }

  answer(key: string, result: PromptResult): void {
    // Only the shown thread's prompts are answered from this view; anything else is a stale message.
    if (this.registry.get(key)?.threadId !== this.threadId) return;
    this.registry.answer(key, result);
  }

  override dispose(): void {
    super.dispose();
    this.mark?.dispose();
  }

  private sendList(): void {
    if (!this.threadId) return;
    this.post({ type: 'prompts', threadId: this.threadId, prompts: this.registry.list(this.threadId) });
  }

  private updateMark(): void {
    this.mark?.dispose();
    this.mark = this.visible && this.threadId ? this.registry.markVisible(this.threadId) : undefined;
  }
}
