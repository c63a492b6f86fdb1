// Keeps a waiting prompt from going unnoticed: a notification with the prompt's actions when nobody can
// see it (the window is not focused, or no visible conversation view shows its thread), and a status
// bar item while any prompt waits, which brings the oldest one up.
import * as vscode from 'vscode';
import { Disposable } from '../../webview/common/lifecycle';
import type { FileChangeReviews } from './fileChangeReviews';
import type { PromptResult } from '../../webview/messages';
import { commandChoices, fileChoices, mcpChoices, type Choice } from '../../webview/prompts/decisions';
import type { PendingApprovals, PendingPrompt } from './pendingApprovals';
import { notifyWhen } from './turnAlerts';

type Action<R> = { label: string; run: () => R };
const keptNotified = 50;

export class PromptAlerts extends Disposable {
  /** The keys of the latest prompts a notification was shown for (the in-editor tests read it). */
  readonly notified: string[] = [];
  private readonly item = vscode.window.createStatusBarItem(
    'threadline.approvals',
    vscode.StatusBarAlignment.Left,
    50,
  );

  constructor(
    private readonly approvals: PendingApprovals,
    private readonly reviews: FileChangeReviews,
  ) {
    super();
    this.item.name = 'Threadline Approvals';
    this.item.command = 'threadline.approval.showOldest';
    this._registerAll(
      this.item,
      approvals.onDidChange(({ added }) => {
        this.update();
        if (added && !approvals.isVisible(added.threadId)) void this.notify(added);
      }),
      // A card the user saw but did not answer must not wait unseen once its view goes away.
      approvals.onDidHideThread((threadId) => {
        for (const prompt of approvals.list(threadId))
          if (!this.notified.includes(prompt.key)) void this.notify(prompt);
      }),
      vscode.commands.registerCommand('threadline.approval.showOldest', () => this.showOldest()),
    );
    this.update();
  }

  /** What the status bar item says; undefined while it is hidden. */
  get statusText(): string | undefined {
    return this.approvals.list().length > 0 ? this.item.text : undefined;
  }

  private update(): void {
    const waiting = this.approvals.list();
    if (waiting.length === 0) {
      this.item.hide();
      return;
    }
    // An MCP tool's approval question is an approval, as its card says.
    const approvals = waiting.filter(
      (p) => p.kind !== 'userInput' || mcpChoices(p.params.questions) !== null,
    ).length;
    const what = approvals === waiting.length ? 'approval' : approvals === 0 ? 'your answer' : 'you';
    this.item.text = `$(bell) Threadline: waiting for ${what} (${waiting.length})`;
    this.item.tooltip = waiting.map((p) => this.describe(p)).join('\n');
    this.item.show();
  }

  private async showOldest(): Promise<void> {
    const [oldest] = this.approvals.list();
    if (!oldest) return;
    await vscode.commands.executeCommand('threadline.openThread', oldest.threadId);
    if (oldest.kind === 'fileChange') await this.reviews.open(oldest.key);
  }

  private async notify(prompt: PendingPrompt): Promise<void> {
    // With notifications off, the status bar item and the tree's bell still say a prompt waits.
    if (notifyWhen() === 'off') return;
    this.notified.push(prompt.key);
    if (this.notified.length > keptNotified) this.notified.shift();
    const actions = this.actionsFor(prompt);
    const picked = await vscode.window.showInformationMessage(
      this.describe(prompt),
      ...actions.map((a) => a.label),
    );
    await actions.find((a) => a.label === picked)?.run();
  }

  /**
   * A notification's buttons: the answers the request allows with the cards' labels (answers.ts), but
   * never "always": the rule it stores is shown on the card, not in a one-line toast.
   */
  private actionsFor(prompt: PendingPrompt): Action<unknown>[] {
    const { key, threadId } = prompt;
    const openThread = () => vscode.commands.executeCommand('threadline.openThread', threadId);
    const answers = <D>(choices: Choice<D>[], result: (d: D) => PromptResult) =>
      choices
        .filter((c) => c.kind !== 'always' && c.kind !== 'alwaysDeny')
        .map((c) => ({ label: c.label, run: () => this.approvals.answer(key, result(c.decision)) }));
    switch (prompt.kind) {
      case 'commandExecution':
        return answers(commandChoices(prompt.params), (decision) => ({ decision }));
      case 'fileChange':
        return [
          { label: 'Open diff', run: () => openThread().then(() => this.reviews.open(key)) },
          ...answers(
            fileChoices().filter((c) => c.kind === 'accept' || c.kind === 'decline'),
            (decision) => ({ decision }),
          ),
        ];
      case 'userInput': {
        const [question] = prompt.params.questions;
        const mcp = mcpChoices(prompt.params.questions);
        return mcp && question
          ? answers(mcp, (label) => ({ answers: { [question.id]: { answers: [label] } } }))
          : [{ label: 'Answer…', run: openThread }];
      }
    }
  }
  /** One line saying what a prompt asks, and which thread asks when it is not the one in view. */
  private describe(prompt: PendingPrompt): string {
    const who = `Threadline${this.approvals.askingThread(prompt.threadId)}`;
    switch (prompt.kind) {
      case 'commandExecution': {
        const { networkApprovalContext: network, command } = prompt.params;
        if (network) return `${who} asks for network access to ${network.host} (${network.protocol}).`;
        return `${who} wants to run: ${command ?? 'a command'}`;
      }
      case 'fileChange': {
        const paths = this.reviews.pathsOf(prompt).map((p) => this.approvals.shownPath(prompt.threadId, p));
        const files = paths.length === 1 ? paths[0] : `${paths.length} files: ${paths.join(', ')}`;
        return `${who} wants to change ${files}${prompt.params.reason ? ` (${prompt.params.reason})` : ''}`;
      }
      case 'userInput': {
        const [first] = prompt.params.questions;
        return `${who} asks: ${first?.question ?? 'a question'}`;
      }
    }
  }
}
