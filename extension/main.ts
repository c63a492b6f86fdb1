// Extension entry point: creates the one shared server connection and hands it to each part of the UI.
// Every disposable goes through the extension context.
import { openSettingsCommand } from './settings/openSettings';
import * as vscode from 'vscode';
import { accountCommands } from './account/accountCommands';
import { ProviderKeys } from './account/providerKeys';
import { FileChangeReviews } from './approvals/fileChangeReviews';
import { PendingApprovals } from './approvals/pendingApprovals';
import { PromptAlerts } from './approvals/promptAlerts';
import { TurnAlerts } from './approvals/turnAlerts';
import { threadTitle } from '../webview/common/threadTitle';
import { registerConversation } from './conversation/conversationViews';
import { serverVersion } from './server/serverVersion';
import { SaveFailures } from './server/saveFailures';
import { ServerStatus } from './server/serverStatus';
import { ThreadlineServer } from './server/threadlineServer';
import { ThreadsView } from './threads/threadsView';
import { setupStatus } from './account/setupStatus';
import { walkthroughProgress } from './walkthrough/walkthroughProgress';
import { McpServersView } from './mcp/mcpServersView';
import { threadExportCommands } from './export/threadExport';
import { commandTerminals } from './terminal/commandTerminals';
import { usageCommands } from './usage/usagePanel';

let server: ThreadlineServer | undefined;

/** What activate() returns: the in-editor tests drive the extension through it. */
export interface ThreadlineApi {
  server: ThreadlineServer;
  threads: ThreadsView;
  approvals: PendingApprovals;
  reviews: FileChangeReviews;
  alerts: PromptAlerts;
  turnAlerts: TurnAlerts;
  mcp: McpServersView;
}

export function activate(context: vscode.ExtensionContext): ThreadlineApi {
  server = new ThreadlineServer(context);
  const keys = new ProviderKeys(context.secrets, context.globalState);
  // The first launch waits for the stored keys, so the server starts with them in its environment.
  server.prepare(keys.env().then((env) => server?.setProviderKeys(env)));
  const titleOf = (threadId: string): string | undefined => {
    const node = threads.model.thread(threadId);
    return node && threadTitle(node.thread);
  };
  const folderOf = (threadId: string) => threads.model.thread(threadId)?.thread.cwd;
  const approvals = new PendingApprovals(server, { titleOf, folderOf });
  const turnAlerts = new TurnAlerts(server, approvals, titleOf);
  const threads: ThreadsView = new ThreadsView(server, context.workspaceState, approvals, turnAlerts);
  const reviews = new FileChangeReviews(server, approvals);
  const alerts = new PromptAlerts(approvals, reviews);
  const mcp = new McpServersView(server);
  context.subscriptions.push(
    server,
    threads,
    approvals,
    reviews,
    alerts,
    turnAlerts,
    mcp,
    new ServerStatus(server),
    new SaveFailures(server),
    ...accountCommands(server, keys),
    vscode.commands.registerCommand('threadline.about', () => showAbout(context)),
    vscode.commands.registerCommand('threadline.showLog', () => server?.log.show()),
    openSettingsCommand(server),
    vscode.commands.registerCommand('threadline.restartServer', () => server?.restart()),
    ...registerConversation(context, server, approvals),
    ...threadExportCommands(server),
    ...commandTerminals(server),
    ...usageCommands(context.extensionUri, server),
    ...walkthroughProgress(server, () => setupStatus(server!)),
  );
  return { server, threads, approvals, reviews, alerts, turnAlerts, mcp };
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
