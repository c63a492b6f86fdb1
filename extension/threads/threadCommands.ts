// What the Threads view's buttons and context menu do. Each action is one request; the tree follows the
// server's notifications, so nothing here edits the tree itself.
import * as vscode from 'vscode';
import type { ThreadlineServer } from '../server/threadlineServer';
import { threadOverrides } from '../settings/overrides';
import { readSettings } from '../settings/settings';
import { threadTitle } from '../../webview/common/threadTitle';
import type { Placement } from '../conversation/placement';
import type { ThreadNode, TreeNode } from './treeNodes';

/** Opens a thread in the conversation view (registered by the conversation view). */
export const OPEN_THREAD = 'threadline.openThread';

/** The nodes a context-menu command applies to: the multi-selection when the clicked node is in it. */
export function targets(node: TreeNode | undefined, selected: readonly TreeNode[] | undefined): ThreadNode[] {
  const all = selected && node && selected.includes(node) ? selected : node ? [node] : [];
  return all.filter((n): n is ThreadNode => n.kind === 'thread');
}

/**
 * Opens a thread where the user's setting says (or, with `placement`, in an editor tab here or beside);
 * with `turnId`, scrolled to that turn.
 */
export async function openThread(
  threadId: string,
  turnId?: string,
  placement: Placement = 'default',
): Promise<void> {
  const commands = await vscode.commands.getCommands(true);
  if (commands.includes(OPEN_THREAD))
    await vscode.commands.executeCommand(OPEN_THREAD, threadId, turnId, placement);
}

export function threadCommands(server: ThreadlineServer, cwd: () => string | undefined): vscode.Disposable[] {
  const run = (what: string, action: () => Promise<unknown>) =>
    action().catch((error: Error) => {
      server.log.error(`${what} failed: ${error.message}`);
      void vscode.window.showErrorMessage(`Threadline: ${what} failed: ${error.message}`);
    });
  const each = (what: string, nodes: ThreadNode[], action: (node: ThreadNode) => Promise<unknown>) =>
    run(what, () => Promise.all(nodes.map(action)));

  return [
    vscode.commands.registerCommand('threadline.newThread', () =>
      run('New thread', async () => {
        const folder = cwd();
        const { thread } = await server.request('thread/start', {
          ...threadOverrides(readSettings()),
          ...(folder ? { cwd: folder } : {}),
        });
        await openThread(thread.id);
        return thread.id;
      }),
    ),
    vscode.commands.registerCommand('threadline.renameThread', (node?: TreeNode) =>
      run('Rename', async () => {
        const [target] = targets(node, undefined);
        if (!target) return;
        const name = await vscode.window.showInputBox({
          title: 'Rename Thread',
          value: target.thread.name ?? threadTitle(target.thread),
          prompt: 'A name for this thread',
          validateInput: (value) => (value.trim() ? undefined : 'The name cannot be empty'),
        });
        if (name === undefined) return;
        await server.request('thread/name/set', { threadId: target.thread.id, name: name.trim() });
      }),
    ),
    vscode.commands.registerCommand('threadline.forkThread', (node?: TreeNode) =>
      run('Fork', async () => {
        const [target] = targets(node, undefined);
        if (!target) return;
        const { thread } = await server.request('thread/fork', {
          threadId: target.thread.id,
          excludeTurns: true,
          ...threadOverrides(readSettings()),
        });
        await openThread(thread.id);
      }),
    ),
    vscode.commands.registerCommand('threadline.archiveThread', (node?: TreeNode, selected?: TreeNode[]) =>
      each('Archive', targets(node, selected), ({ thread }) =>
        server.request('thread/archive', { threadId: thread.id }),
      ),
    ),
    vscode.commands.registerCommand('threadline.unarchiveThread', (node?: TreeNode, selected?: TreeNode[]) =>
      each('Unarchive', targets(node, selected), ({ thread }) =>
        server.request('thread/unarchive', { threadId: thread.id }),
      ),
    ),
    vscode.commands.registerCommand(
      'threadline.copyThreadId',
      async (node?: TreeNode, selected?: TreeNode[]) => {
        const ids = targets(node, selected).map(({ thread }) => thread.id);
        if (ids.length > 0) await vscode.env.clipboard.writeText(ids.join('\n'));
      },
    ),
    vscode.commands.registerCommand('threadline.revealRolloutFile', (node?: TreeNode) =>
      run('Reveal rollout file', async () => {
        const [target] = targets(node, undefined);
        if (!target) return;
        // The index may not know the path (an older server); reading the thread asks the store.
        const path =
          target.thread.path ??
          (await server.request('thread/read', { threadId: target.thread.id })).thread.path;
        if (!path) throw new Error('the server did not say where this thread is stored');
        await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true });
      }),
    ),
  ];
}
