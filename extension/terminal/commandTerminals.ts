// The terminals Threadline opens: "Show in Terminal" on a command item of a conversation (a live,
// read-only mirror of the agent's command) and "Run Command in Terminal…" (a command of the user's,
// run by the server with the same sandbox, taking typed input).
import * as vscode from 'vscode';
import type { CommandExecutionItem } from '../../server/protocol/commandExecution';
import type { ThreadlineServer } from '../server/threadlineServer';
import { CommandMirror } from './commandMirror';
import { ExecTerminal } from './execTerminal';

export const SHOW_IN_TERMINAL = 'threadline.showCommandInTerminal';

const nameOf = (command: string) =>
  `Threadline: ${command.length > 40 ? `${command.slice(0, 39)}…` : command}`;

export function commandTerminals(server: ThreadlineServer): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(SHOW_IN_TERMINAL, (threadId: string, item: CommandExecutionItem) => {
      const terminal = vscode.window.createTerminal({
        name: nameOf(item.command),
        pty: new CommandMirror(server, threadId, item),
        iconPath: new vscode.ThemeIcon('terminal'),
      });
      terminal.show();
      return terminal.name;
    }),
    vscode.commands.registerCommand('threadline.runInTerminal', async (commandLine?: string) => {
      const line =
        commandLine ??
        (await vscode.window.showInputBox({
          title: 'Run Command in Terminal',
          prompt: 'Runs in the workspace folder, sandboxed as the agent’s commands are',
          placeHolder: 'npm test',
        }));
      if (!line?.trim()) return undefined;
      const terminal = vscode.window.createTerminal({
        name: nameOf(line),
        pty: new ExecTerminal(
          server,
          line,
          shellArgv(line),
          vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
          !vscode.workspace.isTrusted,
        ),
        iconPath: new vscode.ThemeIcon('terminal'),
      });
      terminal.show();
      return terminal.name;
    }),
  ];
}

/** A command line as the platform's shell runs it. */
function shellArgv(line: string): string[] {
  if (process.platform === 'win32') return ['powershell.exe', '-NoLogo', '-NoProfile', '-Command', line];
  return [process.env.SHELL || '/bin/sh', '-c', line];
}
