// Extension entry point: creates the one shared server connection and hands it to each part of the UI.
// Every disposable goes through the extension context.
import * as vscode from 'vscode';
import { EmptyThreadsProvider } from './threads/emptyThreadsProvider';
import { serverVersion } from './server/serverVersion';
import { ThreadlineServer } from './server/threadlineServer';

let server: ThreadlineServer | undefined;

export function activate(context: vscode.ExtensionContext): ThreadlineServer {
  server = new ThreadlineServer(context);
  context.subscriptions.push(
    server,
    vscode.window.registerTreeDataProvider('threadline.threads', new EmptyThreadsProvider()),
    vscode.commands.registerCommand('threadline.about', () => showAbout(context)),
    vscode.commands.registerCommand('threadline.showLog', () => server?.log.show()),
    vscode.commands.registerCommand('threadline.restartServer', () => server?.restart()),
  );
  return server;
}

/** VS Code waits for this (it disposes the subscriptions afterwards): the server child exits cleanly. */
export function deactivate(): Promise<void> {
  server?.dispose();
  return server?.stopped() ?? Promise.resolve();
}

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
