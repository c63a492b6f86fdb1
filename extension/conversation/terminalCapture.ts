// The last command of each terminal and its output, recorded through VS Code's terminal shell
// integration (1.93+): an execution's output can be read only from when it starts, so every
// execution is listened to as it runs, and its end kept (bounded). Where the API or the shell's
// integration is missing, the capture says so instead.
import * as vscode from 'vscode';
import { Disposable } from '../../webview/common/lifecycle';
import { MAX_TERMINAL_BYTES, type TerminalCapture } from './contextItems';

/** The part of the shell-integration API used here; older VS Code's typings (and hosts) lack it. */
interface ShellExecution {
  commandLine: { value: string };
  cwd?: vscode.Uri;
  read(): AsyncIterable<string>;
}
interface ShellExecutionApi {
  onDidStartTerminalShellExecution: vscode.Event<{ terminal: vscode.Terminal; execution: ShellExecution }>;
  onDidEndTerminalShellExecution: vscode.Event<{
    terminal: vscode.Terminal;
    execution: ShellExecution;
    exitCode: number | undefined;
  }>;
}

interface Recorded {
  execution: ShellExecution;
  output: string;
  dropped: boolean;
  running: boolean;
  exitCode?: number;
  /** Settles when the output stream ends, which may be just after the execution's end event. */
  reading: Promise<void>;
}

/** How long a capture waits for the rest of an ended command's output. */
const OUTPUT_SETTLE_MS = 1000;

export class TerminalCaptures extends Disposable {
  private readonly last = new Map<vscode.Terminal, Recorded>();
  private readonly api: ShellExecutionApi | undefined;

  constructor() {
    super();
    const window = vscode.window as unknown as Partial<ShellExecutionApi>;
    this.api =
      window.onDidStartTerminalShellExecution && window.onDidEndTerminalShellExecution
        ? (window as ShellExecutionApi)
        : undefined;
    if (!this.api) return;
    this._registerAll(
      this.api.onDidStartTerminalShellExecution(({ terminal, execution }) =>
        this.record(terminal, execution),
      ),
      this.api.onDidEndTerminalShellExecution(({ terminal, execution, exitCode }) => {
        const recorded = this.last.get(terminal);
        if (recorded?.execution !== execution) return;
        recorded.running = false;
        recorded.exitCode = exitCode;
      }),
      vscode.window.onDidCloseTerminal((terminal) => this.last.delete(terminal)),
    );
  }

  /** What can be said about the active terminal's last command. */
  async capture(): Promise<TerminalCapture> {
    const terminal = vscode.window.activeTerminal;
    if (!terminal) return { kind: 'noTerminal' };
    const name = terminal.name;
    const integration = (terminal as { shellIntegration?: unknown }).shellIntegration;
    const recorded = this.last.get(terminal);
    if (!this.api || (!integration && !recorded)) return { kind: 'noShellIntegration', terminal: name };
    if (!recorded) return { kind: 'noCommand', terminal: name };
    if (!recorded.running) {
      let timer: NodeJS.Timeout | undefined;
      const settle = new Promise<void>((resolve) => (timer = setTimeout(resolve, OUTPUT_SETTLE_MS)));
      await Promise.race([recorded.reading, settle]);
      clearTimeout(timer);
    }
    return {
      kind: 'command',
      terminal: name,
      commandLine: recorded.execution.commandLine.value,
      cwd: recorded.execution.cwd?.fsPath,
      exitCode: recorded.exitCode,
      running: recorded.running,
      output: recorded.output,
      dropped: recorded.dropped,
    };
  }

  private record(terminal: vscode.Terminal, execution: ShellExecution): void {
    const recorded: Recorded = {
      execution,
      output: '',
      dropped: false,
      running: true,
      reading: Promise.resolve(),
    };
    this.last.set(terminal, recorded);
    recorded.reading = (async () => {
      try {
        for await (const data of execution.read()) {
          recorded.output += data;
          // Twice the bound, so escape sequences removed later still leave the bound's worth of text.
          if (recorded.output.length > 4 * MAX_TERMINAL_BYTES) {
            recorded.output = recorded.output.slice(-2 * MAX_TERMINAL_BYTES);
            recorded.dropped = true;
          }
        }
      } catch {
        // The terminal went away while it was read: what was read stays.
      }
    })();
  }
}
