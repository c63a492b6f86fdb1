// Extension entry point: owns every disposable it creates through the extension context.
import * as vscode from 'vscode';
import { EmptyThreadsProvider } from './threads/emptyThreadsProvider';
import { serverVersion } from './server/serverVersion';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.window.registerTreeDataProvider('threadline.threads', new EmptyThreadsProvider()),
    vscode.commands.registerCommand('threadline.about', () => showAbout(context)),
  );
}

export function deactivate(): void {}

// Returns the server's answer so tests (and other commands) can use it; the toast is not awaited because it
// settles only when the user dismisses it.
async function showAbout(context: vscode.ExtensionContext): Promise<string> {
  const version = String(context.extension.packageJSON.version);
  try {
    const server = await serverVersion(vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.js').fsPath);
    void vscode.window.showInformationMessage(
      `Threadline ${version}, app-server ${server.replace(/^threadline /, '')}`,
    );
    return server;
  } catch (error) {
    void vscode.window.showErrorMessage(String(error instanceof Error ? error.message : error));
    throw error;
  }
}
