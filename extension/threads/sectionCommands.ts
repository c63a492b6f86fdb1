// The Threads view's section (folder) commands: new, rename, delete, and moving threads into or out of
// a section. Each is one request; creating, renaming and deleting have no notification, so the tree
// lists the sections again after them, while moves come back as thread/section/changed.
import * as vscode from 'vscode';
import type { ThreadSection } from '../../server/protocol/threadSectionMethods';
import type { ThreadlineServer } from '../server/threadlineServer';
import { targets } from './threadCommands';
import type { ThreadTreeModel } from './threadTreeModel';
import type { TreeNode } from './treeNodes';

function askName(title: string, value = ''): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    value,
    prompt: 'A name for the section',
    validateInput: (text) => (text.trim() ? undefined : 'The name cannot be empty'),
  });
}

export function sectionCommands(server: ThreadlineServer, model: ThreadTreeModel): vscode.Disposable[] {
  const run = (what: string, action: () => Promise<unknown>) =>
    action().catch((error: Error) => {
      server.log.error(`${what} failed: ${error.message}`);
      void vscode.window.showErrorMessage(`Threadline: ${what} failed: ${error.message}`);
    });
  const sectionOf = (node?: TreeNode): ThreadSection | undefined =>
    node?.kind === 'folder' ? node.section : undefined;

  const create = async (): Promise<ThreadSection | undefined> => {
    const name = await askName('New Section');
    if (name === undefined) return undefined;
    const { section } = await server.request('threadSection/create', { name: name.trim() });
    await model.reloadSections();
    return section;
  };

  return [
    vscode.commands.registerCommand('threadline.newSection', () => run('New section', create)),
    vscode.commands.registerCommand('threadline.renameSection', (node?: TreeNode) =>
      run('Rename section', async () => {
        const section = sectionOf(node);
        if (!section) return;
        const name = await askName('Rename Section', section.name);
        if (name === undefined) return;
        await server.request('threadSection/update', { sectionId: section.id, name: name.trim() });
        await model.reloadSections();
      }),
    ),
    // Nothing is lost (its threads stay, back in their recency groups), so no confirmation is asked.
    vscode.commands.registerCommand('threadline.deleteSection', (node?: TreeNode) =>
      run('Delete section', async () => {
        const section = sectionOf(node);
        if (!section) return;
        await server.request('threadSection/delete', { sectionId: section.id });
        await model.reloadSections();
      }),
    ),
    vscode.commands.registerCommand('threadline.moveToSection', (node?: TreeNode, selected?: TreeNode[]) =>
      run('Move to section', async () => {
        const threads = targets(node, selected);
        if (threads.length === 0) return;
        const current = threads[0]!.thread.section?.id;
        type Pick = vscode.QuickPickItem & { sectionId: string | null | 'new' };
        const items: Pick[] = [
          ...model.sectionFolders.map(({ section }) => ({
            label: `$(folder) ${section.name}`,
            sectionId: section.id,
            ...(section.id === current ? { description: 'current' } : {}),
          })),
          { label: '$(new-folder) New Section…', sectionId: 'new' },
          ...(threads.some((t) => t.thread.section)
            ? [{ label: '$(close) No Section', sectionId: null }]
            : []),
        ];
        const picked = await vscode.window.showQuickPick(items, { title: 'Move to Section' });
        if (!picked) return;
        const sectionId = picked.sectionId === 'new' ? (await create())?.id : picked.sectionId;
        if (sectionId === undefined) return;
        for (const { thread } of threads) {
          await server.request('thread/section/move', { threadId: thread.id, sectionId });
        }
      }),
    ),
  ];
}
