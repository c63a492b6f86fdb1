// "Show in Terminal" on a command the agent runs: a terminal that shows the command's output so far
// and then follows it live, colours included, until the command ends. Read-only: the agent's
// commands read no input from the user (what is typed is answered with a note, once).
import * as vscode from 'vscode';
import type { CommandExecutionItem } from '../../server/protocol/commandExecution';
import type { ThreadlineServer } from '../server/threadlineServer';
import { toTerminal } from './terminalText';

export class CommandMirror implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.written.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private last = '';
  private toldReadOnly = false;
  /** Deltas that arrive before the terminal is open are shown when it opens, after the output so far. */
  private pending: string[] | undefined = [];
  private endedBeforeOpen: CommandExecutionItem | undefined;

  constructor(
    server: ThreadlineServer,
    threadId: string,
    private readonly item: CommandExecutionItem,
  ) {
    const ours = (params: { threadId: string; itemId: string }) =>
      params.threadId === threadId && params.itemId === item.id;
    this.subscriptions.push(
      server.onNotification('item/commandExecution/outputDelta', (params) => {
        if (ours(params)) this.output(params.delta);
      }),
      server.onNotification('item/completed', (params) => {
        if (
          params.threadId === threadId &&
          params.item.id === item.id &&
          params.item.type === 'commandExecution'
        )
          this.ended(params.item);
      }),
    );
  }

  open(): void {
    this.write(`\u001b[2m$ ${this.item.command}\u001b[0m\r\n`);
    if (this.item.aggregatedOutput) this.output(this.item.aggregatedOutput, true);
    for (const delta of this.pending ?? []) this.output(delta, true);
    this.pending = undefined;
    const end = this.endedBeforeOpen ?? (this.item.status === 'inProgress' ? undefined : this.item);
    if (end) this.ended(end);
  }

  handleInput(): void {
    if (this.toldReadOnly) return;
    this.toldReadOnly = true;
    this.write(
      '\r\n\u001b[2m(This terminal mirrors a command the agent runs; it takes no input.)\u001b[0m\r\n',
    );
  }

  close(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.written.dispose();
  }

  private output(text: string, opened = false): void {
    if (this.pending && !opened) return void this.pending.push(text);
    this.write(toTerminal(text, this.last));
    this.last = text;
  }

  private ended(item: CommandExecutionItem): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    if (this.pending) return void (this.endedBeforeOpen = item);
    const exit = typeof item.exitCode === 'number' ? `exit ${item.exitCode}` : item.status;
    const colour = item.exitCode === 0 ? '32' : '31';
    this.write(
      `${this.last.endsWith('\n') || !this.last ? '' : '\r\n'}\u001b[${colour}m[${exit}]\u001b[0m\r\n`,
    );
  }

  private write(text: string): void {
    this.written.fire(text);
  }
}
