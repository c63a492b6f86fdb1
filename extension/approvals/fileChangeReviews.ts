// A pending file-change approval as real diff editors: one tab per file, current content on the left,
// the proposal on the right (editable when the server takes edited answers), with Accept, Accept for
// session, Decline and Cancel turn in the editor title and in the answer bar above the proposal (the
// cards' labels; the keys are package.json's). The tabs belong to their request: when it settles,
// however that happens, they close and their contents are dropped.
import * as vscode from 'vscode';
import { Disposable } from '../../webview/common/lifecycle';
import { readTextOrEmpty } from '../files/readText';
import type { FileUpdateChange } from '../../server/protocol/fileChange';
import type { ThreadlineServer } from '../server/threadlineServer';
import type { PromptResult, PromptResultOf } from '../../webview/messages';
import type { PendingApprovals, PendingPrompt } from './pendingApprovals';
import { DiffAnswerBar } from './diffAnswerBar';
import { ProposedDocuments } from './proposedDocuments';
import { proposedFiles, type ProposedFile } from './proposedFiles';

/** Holds the URIs of every pending request's diff sides; the title actions show on those tabs only. */
const pendingUrisKey = 'threadline.pendingProposedUris';

interface ReviewFile extends ProposedFile {
  left: vscode.Uri;
  right: vscode.Uri;
  title: string;
}

type Answer = 'accept' | 'acceptForSession' | 'decline' | 'cancel';
/** The title actions' commands; each takes the tab's URI (from the title bar) or a request key. */
const commands: Record<string, Answer> = {
  accept: 'accept',
  acceptForSession: 'acceptForSession',
  decline: 'decline',
  cancelTurn: 'cancel',
};

export class FileChangeReviews extends Disposable {
  /** The changes of fileChange items in progress, by thread and item: a request names only the item. */
  private readonly changes = new Map<string, FileUpdateChange[]>();
  private readonly reviews = new Map<string, ReviewFile[]>();
  private readonly documents = new ProposedDocuments();
  private readonly bar = new DiffAnswerBar();

  constructor(
    private readonly server: ThreadlineServer,
    private readonly approvals: PendingApprovals,
  ) {
    super();
    this._registerAll(
      this.documents,
      this.bar,
      server.onNotification('item/started', ({ threadId, item }) => {
        if (item.type === 'fileChange') this.changes.set(itemKey(threadId, item.id), item.changes);
      }),
      // Items of a turn that ended (or of a server that went away mid-turn) will not be asked about.
      server.onNotification('turn/completed', ({ threadId }) => this.forgetItems(threadId)),
      server.onStateChange((state) => state !== 'ready' && this.forgetItems()),
      server.onNotification('item/completed', ({ threadId, item }) => {
        this.changes.delete(itemKey(threadId, item.id));
      }),
      approvals.onDidChange(({ added, settled }) => {
        if (added?.kind === 'fileChange') {
          const changes = this.changes.get(itemKey(added.threadId, added.itemId));
          void this.prepare(added, changes).then(() => this.open(added.key));
        }
        if (settled?.prompt.kind === 'fileChange') void this.close(settled.prompt.key);
      }),
      approvals.reviseAnswers((prompt, result) => this.withEdits(prompt, result)),
      ...Object.entries(commands).map(([name, answer]) =>
        vscode.commands.registerCommand(
          `threadline.approval.${name}`,
          (target?: vscode.Uri | string | { uri: vscode.Uri }) => this.answer(answer, target),
        ),
      ),
      vscode.commands.registerCommand('threadline.approval.openDiff', (key: string) => this.open(key)),
    );
  }

  /** The files a file-change prompt would change (as its item names them). */
  pathsOf(prompt: PendingPrompt): string[] {
    return (this.changes.get(itemKey(prompt.threadId, prompt.itemId)) ?? []).map((c) => c.path);
  }

  /** Opens (or shows again) the diff tabs of a pending file-change request, without taking the focus. */
  async open(key: string): Promise<void> {
    const files = this.reviews.get(key);
    if (!files || !this.approvals.get(key)) return;
    for (const file of files) {
      await vscode.commands.executeCommand('vscode.diff', file.left, file.right, file.title, {
        preserveFocus: true,
        preview: false,
      });
    }
  }

  private async prepare(prompt: PendingPrompt, changes: FileUpdateChange[] | undefined): Promise<void> {
    if (!changes) {
      this.server.log.warn(
        `file-change approval ${prompt.key}: no fileChange item ${prompt.itemId} was started`,
      );
      return;
    }
    let files: ProposedFile[];
    try {
      files = await proposedFiles(changes, (path) => readTextOrEmpty(vscode.Uri.file(path)));
    } catch (error) {
      this.server.log.warn(`file-change approval ${prompt.key}: ${(error as Error).message}`);
      return;
    }
    // It may have been answered elsewhere while the files were read.
    if (!this.approvals.get(prompt.key)) return;
    this.documents.setWritable(takesEdits(this.server));
    this.reviews.set(
      prompt.key,
      files.map((file, index) => {
        const name = this.approvals.shownPath(prompt.threadId, file.target);
        const count = files.length > 1 ? ` (${index + 1} of ${files.length})` : '';
        const title = `Threadline: proposed ${verb(file)} — ${name}${count}`;
        return { ...file, ...this.documents.add(prompt.key, name, file.current, file.proposed), title };
      }),
    );
    void this.publishUris();
    const reviewed = this.reviews.get(prompt.key)!;
    const what = reviewed.length > 1 ? `these ${reviewed.length} changes` : 'this change';
    this.bar.show(
      prompt.key,
      reviewed.map((f) => f.right),
      `Threadline proposes ${what}${this.approvals.askingThread(prompt.threadId)}`,
    );
  }

  /** The target: a request key, a diff side's URI (the title bar), the answer bar's comment thread. */
  private async answer(
    answer: Answer,
    target: vscode.Uri | string | { uri: vscode.Uri } | undefined,
  ): Promise<boolean> {
    const uri = target instanceof vscode.Uri ? target : typeof target === 'object' ? target.uri : undefined;
    const key = typeof target === 'string' ? target : this.keyOf(uri ?? activeDiffUri());
    if (key === undefined) return false;
    return this.approvals.answer(key, { decision: answer } satisfies PromptResultOf<'fileChange'>);
  }

  /**
   * An accept of a request whose proposal the user edited carries the edited files' final content (and
   * the session grant when it was Accept for Session).
   */
  private withEdits(prompt: PendingPrompt, result: PromptResult): PromptResult {
    const decision = 'decision' in result ? result.decision : undefined;
    const files = this.reviews.get(prompt.key);
    if (prompt.kind !== 'fileChange' || !files || (decision !== 'accept' && decision !== 'acceptForSession'))
      return result;
    const edited = files.flatMap((file) => {
      const content = this.documents.proposedText(file.right);
      return content === undefined || content === file.proposed ? [] : [{ path: file.path, content }];
    });
    if (edited.length === 0) return result;
    const forSession = decision === 'acceptForSession' ? { forSession: true } : {};
    return {
      decision: { acceptWithEdits: { files: edited, ...forSession } },
    } satisfies PromptResultOf<'fileChange'>;
  }

  private forgetItems(threadId?: string): void {
    for (const key of this.changes.keys())
      if (threadId === undefined || key.startsWith(`${threadId}\n`)) this.changes.delete(key);
  }

  private keyOf(uri: vscode.Uri | undefined): string | undefined {
    if (!uri) return undefined;
    const text = uri.toString();
    for (const [key, files] of this.reviews)
      if (files.some((f) => f.left.toString() === text || f.right.toString() === text)) return key;
    return undefined;
  }

  private async close(key: string): Promise<void> {
    const files = this.reviews.get(key);
    if (!files) return;
    this.reviews.delete(key);
    this.bar.hide(key);
    void this.publishUris();
    const uris = new Set(files.flatMap((f) => [f.left.toString(), f.right.toString()]));
    // An edited proposal is saved into memory first, so closing its tab asks nothing.
    for (const document of vscode.workspace.textDocuments)
      if (document.isDirty && uris.has(document.uri.toString())) await document.save();
    const tabs = vscode.window.tabGroups.all.flatMap((group) =>
      group.tabs.filter(
        (tab) => tab.input instanceof vscode.TabInputTextDiff && uris.has(tab.input.modified.toString()),
      ),
    );
    await vscode.window.tabGroups.close(tabs, true);
    this.documents.drop(key);
  }

  private publishUris(): Thenable<unknown> {
    const uris = [...this.reviews.values()].flat().flatMap((f) => [f.left.toString(), f.right.toString()]);
    return vscode.commands.executeCommand('setContext', pendingUrisKey, uris);
  }
}

const itemKey = (threadId: string, itemId: string) => `${threadId}\n${itemId}`;

/** Our server advertises that it takes edited answers (`threadline.acceptWithEdits` in initialize). */
function takesEdits(server: ThreadlineServer): boolean {
  return server.info?.threadline?.acceptWithEdits === true;
}

function verb(file: ProposedFile): string {
  return file.kind === 'add'
    ? 'new file'
    : file.kind === 'delete'
      ? 'deletion'
      : file.kind === 'move'
        ? 'move'
        : 'edit';
}

function activeDiffUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
}
