// Dragging threads in the Threads tree: dropped on a section's folder (or on a thread in it) they move
// into that section; dropped on a recency group (or a thread in one) they leave their section. Each move
// is one thread/section/move; the tree follows the thread/section/changed notifications.
import * as vscode from 'vscode';
import type { ThreadlineServer } from '../server/threadlineServer';
import type { TreeNode } from './treeNodes';

/** VS Code's mime type for items dragged out of the view with this id (lower case). */
const THREADS_MIME = 'application/vnd.code.tree.threadline.threads';

/** Where a drop on `target` puts threads: a section id, null for none, undefined for nowhere. */
export function dropSection(target: TreeNode | undefined): string | null | undefined {
  if (target?.kind === 'folder') return target.section.id;
  if (target?.kind === 'group') return null;
  if (target?.kind === 'thread' && !target.archived) return target.thread.section?.id ?? null;
  return undefined;
}

export class ThreadDragAndDrop implements vscode.TreeDragAndDropController<TreeNode> {
  readonly dragMimeTypes = [THREADS_MIME];
  readonly dropMimeTypes = [THREADS_MIME];

  constructor(private readonly server: ThreadlineServer) {}

  handleDrag(source: readonly TreeNode[], data: vscode.DataTransfer): void {
    // Archived threads stay where they are: a section holds the threads one works with.
    const ids = source.flatMap((n) => (n.kind === 'thread' && !n.archived ? [n.thread.id] : []));
    if (ids.length > 0) data.set(THREADS_MIME, new vscode.DataTransferItem(ids));
  }

  async handleDrop(target: TreeNode | undefined, data: vscode.DataTransfer): Promise<void> {
    const ids = data.get(THREADS_MIME)?.value as string[] | undefined;
    const sectionId = dropSection(target);
    if (!Array.isArray(ids) || sectionId === undefined) return;
    try {
      for (const threadId of ids) await this.server.request('thread/section/move', { threadId, sectionId });
    } catch (error) {
      this.server.log.error(`moving threads failed: ${(error as Error).message}`);
      void vscode.window.showErrorMessage(`Threadline: moving threads failed: ${(error as Error).message}`);
    }
  }
}
