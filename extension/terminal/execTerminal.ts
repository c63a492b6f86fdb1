// "Run Command in Terminal": a command of the user's run by the server (`command/exec`, sandboxed
// like the agent's) in a terminal of its own. Its output streams in as it is printed; what the user
// types goes to its stdin (`command/exec/write`) a line at a time, since the server runs commands
// over pipes, not in a terminal (it refuses `tty`, and so `command/exec/resize`): the terminal
// echoes and edits the line itself. Ctrl+C stops the process, Ctrl+D ends its input; closing the
// terminal stops it too.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ThreadlineServer } from '../server/threadlineServer';
import { LineEditor, toTerminal } from './terminalText';

export class ExecTerminal implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.written.event;
  private readonly closed = new vscode.EventEmitter<number | void>();
  readonly onDidClose = this.closed.event;
  private readonly processId = `threadline-terminal-${randomUUID()}`;
  private readonly decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  private readonly editor = new LineEditor();
  private subscription: vscode.Disposable | undefined;
  private running = false;
  private last = '';

  constructor(
    private readonly server: ThreadlineServer,
    /** The command line as the user typed it (shown first). */
    private readonly commandLine: string,
    private readonly argv: string[],
    private readonly cwd: string | undefined,
    /** Restricted Mode: read-only whatever the configuration says. */
    private readonly readOnly: boolean,
  ) {}

  open(): void {
    this.write(`\u001b[2m$ ${this.commandLine}\u001b[0m\r\n`);
    this.subscription = this.server.onNotification('command/exec/outputDelta', (params) => {
      if (params.processId !== this.processId) return;
      const text = this.decoders[params.stream].decode(Buffer.from(params.deltaBase64, 'base64'), {
        stream: true,
      });
      this.output(text, params.stream === 'stderr');
      if (params.capReached) this.write('\r\n\u001b[2m(output cut: the stream budget is spent)\u001b[0m\r\n');
    });
    this.running = true;
    this.server
      .request('command/exec', {
        command: this.argv,
        processId: this.processId,
        ...(this.cwd ? { cwd: this.cwd } : {}),
        ...(this.readOnly ? { sandboxPolicy: { type: 'readOnly' as const } } : {}),
        streamStdin: true,
        streamStdoutStderr: true,
        disableTimeout: true,
      })
      .then(
        ({ exitCode }) => this.finish(`\u001b[${exitCode === 0 ? 32 : 31}m[exit ${exitCode}]\u001b[0m`),
        (error: Error) => this.finish(`\u001b[31m${error.message}\u001b[0m`),
      );
  }

  handleInput(data: string): void {
    if (!this.running) return;
    for (const input of this.editor.take(data)) {
      this.write(input.echo);
      if (input.send !== undefined) this.send({ deltaBase64: Buffer.from(input.send).toString('base64') });
      if (input.endOfInput) this.send({ closeStdin: true });
      if (input.interrupt) void this.terminate();
    }
  }

  close(): void {
    if (this.running) void this.terminate();
    this.subscription?.dispose();
  }

  private send(what: { deltaBase64?: string; closeStdin?: boolean }): void {
    this.server
      .request('command/exec/write', { processId: this.processId, ...what })
      .catch((error: Error) => this.write(`\r\n\u001b[31m${error.message}\u001b[0m\r\n`));
  }

  private terminate(): Promise<unknown> {
    return this.server.request('command/exec/terminate', { processId: this.processId }).catch(() => {});
  }

  private finish(line: string): void {
    this.running = false;
    this.subscription?.dispose();
    this.write(`${this.last.endsWith('\n') || !this.last ? '' : '\r\n'}${line}\r\n`);
  }

  /** Standard error in red, as terminals commonly show it apart. */
  private output(text: string, stderr: boolean): void {
    if (!text) return;
    const shown = toTerminal(text, this.last);
    this.write(stderr ? `\u001b[31m${shown}\u001b[0m` : shown);
    this.last = text;
  }

  private write(text: string): void {
    this.written.fire(text);
  }
}
