// Extension entry point: owns every disposable it creates through the extension context.
import * as vscode from 'vscode';
import { EmptyThreadsProvider } from './threads/emptyThreadsProvider';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.window.registerTreeDataProvider('threadline.threads', new EmptyThreadsProvider()),
    vscode.commands.registerCommand('threadline.about', () => showAbout(context)),
  );
}

export function deactivate(): void {}

function showAbout(context: vscode.ExtensionContext): Thenable<unknown> {
  const version = String(context.extension.packageJSON.version);
  return vscode.window.showInformationMessage(`Threadline ${version}`);
}
