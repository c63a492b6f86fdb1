// Taking a thread out of the editor and bringing one back: Export as Markdown (a file), Copy as
// Markdown (the clipboard), Export Rollout (the raw JSONL, as the server stores it) and Import
// Rollout (a new thread from such a file, through the server's thread/import, which validates it).
// Each works on the thread the tree's context menu names, else the one the Conversation view shows.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { threadTitle } from '../../webview/common/threadTitle';
import type { ThreadlineServer } from '../server/threadlineServer';
import { openThread } from '../threads/threadCommands';
import type { TreeNode } from '../threads/treeNodes';
import { threadMarkdown } from './threadMarkdown';

/** The command the Conversation view answers with the id of the thread it shows. */
export const SHOWN_THREAD = 'threadline.conversation.shownThreadId';

type Target = TreeNode | string | undefined;

export function threadExportCommands(server: ThreadlineServer): vscode.Disposable[] {
  const run =
    <A extends unknown[]>(what: string, action: (...args: A) => Promise<unknown>) =>
    (...args: A) =>
      action(...args).catch((error: Error) => {
        server.log.error(`${what} failed: ${error.message}`);
        void vscode.window.showErrorMessage(`Threadline: ${what} failed: ${error.message}`);
      });

  async function read(target: Target) {
    const threadId = await threadIdOf(target);
    if (!threadId) throw new Error('open a thread first, or pick one in the Threads view');
    return (await server.request('thread/read', { threadId, includeTurns: true })).thread;
  }

  return [
    vscode.commands.registerCommand(
      'threadline.exportMarkdown',
      run('Export as Markdown', async (target?: Target, to?: vscode.Uri) => {
        const thread = await read(target);
        const uri = to ?? (await saveTo(`${fileNameOf(threadTitle(thread))}.md`, { Markdown: ['md'] }));
        if (!uri) return undefined;
        await vscode.workspace.fs.writeFile(uri, Buffer.from(threadMarkdown(thread), 'utf8'));
        if (!to) void offerToOpen(uri, 'markdown.showPreview');
        return uri;
      }),
    ),
    vscode.commands.registerCommand(
      'threadline.copyMarkdown',
      run('Copy as Markdown', async (target?: Target) => {
        await vscode.env.clipboard.writeText(threadMarkdown(await read(target)));
        void vscode.window.showInformationMessage('Threadline: the thread is on the clipboard as Markdown.');
      }),
    ),
    vscode.commands.registerCommand(
      'threadline.exportRollout',
      run('Export rollout', async (target?: Target, to?: vscode.Uri) => {
        const threadId = await threadIdOf(target);
        if (!threadId) throw new Error('open a thread first, or pick one in the Threads view');
        const { thread } = await server.request('thread/read', { threadId });
        if (!thread.path) throw new Error('this thread is not stored in a file (an ephemeral thread)');
        const uri = to ?? (await saveTo(path.basename(thread.path), { 'Threadline rollout': ['jsonl'] }));
        if (!uri) return undefined;
        await vscode.workspace.fs.copy(vscode.Uri.file(thread.path), uri, { overwrite: true });
        return uri;
      }),
    ),
    vscode.commands.registerCommand(
      'threadline.importRollout',
      run('Import rollout', async (from?: vscode.Uri) => {
        const uri =
          from ??
          (
            await vscode.window.showOpenDialog({
              title: 'Import a Threadline Rollout',
              openLabel: 'Import',
              canSelectMany: false,
              filters: { 'Threadline rollout': ['jsonl'] },
            })
          )?.[0];
        if (!uri) return undefined;
        const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
        const { thread } = await server.request('thread/import', {
          path: uri.fsPath,
          ...(cwd ? { cwd } : {}),
        });
        await openThread(thread.id);
        return thread.id;
      }),
    ),
  ];
}

async function threadIdOf(target: Target): Promise<string | undefined> {
  if (typeof target === 'string') return target;
  if (target?.kind === 'thread') return target.thread.id;
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes(SHOWN_THREAD)) return undefined;
  return vscode.commands.executeCommand<string | undefined>(SHOWN_THREAD);
}

function saveTo(name: string, filters: Record<string, string[]>): Thenable<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return vscode.window.showSaveDialog({
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    filters,
  });
}

async function offerToOpen(uri: vscode.Uri, previewCommand: string): Promise<void> {
  const picked = await vscode.window.showInformationMessage(
    `Threadline: exported to ${vscode.workspace.asRelativePath(uri)}.`,
    'Open Preview',
  );
  if (picked) await vscode.commands.executeCommand(previewCommand, uri);
}

/** A title as a file name: letters, digits and dashes, short. */
export function fileNameOf(title: string): string {
  const name = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return name || 'thread';
}
