// The Threads view's commands for a thread in its own git worktree: start one, review all its changes,
// bring them into the workspace, throw it away (after saying what would be lost), open it in a
// window of its own.
// The server does the git work (thread/worktree/apply and /discard); this only asks and reports.
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Thread } from '../../server/protocol/thread';
import type { ThreadlineServer } from '../server/threadlineServer';
import { threadOverrides } from '../settings/overrides';
import { readSettings } from '../settings/settings';
import { openThread, targets } from './threadCommands';
import { applySummary, lossDetail } from './worktreeText';
import type { TreeNode } from './treeNodes';

/** The branch of a thread that works in a worktree the server made (and that is still there), else null. */
export function worktreeBranch(thread: Pick<Thread, 'gitInfo' | 'cwd'>): string | null {
  const branch = thread.gitInfo?.branch;
  return branch?.startsWith('threadline/') && existsSync(thread.cwd) ? branch : null;
}

export function worktreeCommands(
  server: ThreadlineServer,
  cwd: () => string | undefined,
): vscode.Disposable[] {
  const run = (what: string, action: () => Promise<unknown>) =>
    action().catch((error: Error) => {
      server.log.error(`${what} failed: ${error.message}`);
      void vscode.window.showErrorMessage(`Threadline: ${what} failed: ${error.message}`);
    });
  const target = (node?: TreeNode) => targets(node, undefined)[0]?.thread;

  return [
    vscode.commands.registerCommand('threadline.newThreadInWorktree', () =>
      run('New thread in worktree', async () => {
        const folder = cwd();
        if (!folder) throw new Error('open a folder that is a git repository first');
        const { thread } = await server.request('thread/start', {
          ...threadOverrides(readSettings()),
          cwd: folder,
          worktree: {},
        });
        // Its cwd is the worktree, not this folder: the tree takes it from a new listing, which has it.
        await vscode.commands.executeCommand('threadline.refreshThreads');
        await openThread(thread.id);
        return thread.id;
      }),
    ),
    // The worktree against its base (committed on its branch or not, new files too) in one editor.
    vscode.commands.registerCommand('threadline.reviewWorktree', (node?: TreeNode) =>
      run('Review all changes', async () => {
        const thread = target(node);
        if (!thread) return;
        const read = await server.request('thread/worktree/read', { threadId: thread.id, includeDiff: true });
        if (read.changedFiles.length === 0 || !read.diff) {
          void vscode.window.showInformationMessage(`${read.branch} has no changes against its base.`);
          return;
        }
        await vscode.commands.executeCommand(
          'threadline.showChanges',
          read.worktreePath,
          read.diff,
          `Changes in ${read.branch}`,
        );
      }),
    ),
    vscode.commands.registerCommand('threadline.applyWorktree', (node?: TreeNode) =>
      run('Apply to workspace', async () => {
        const thread = target(node);
        if (!thread) return;
        const result = await server.request('thread/worktree/apply', { threadId: thread.id });
        // Its row's count of changed files starts again from what was applied.
        await vscode.commands.executeCommand('threadline.refreshThreads');
        const summary = applySummary(result);
        const first = result.conflicts[0];
        if (!first) {
          void vscode.window.showInformationMessage(summary);
          return;
        }
        const root = cwd();
        const open = await vscode.window.showWarningMessage(summary, 'Open Conflicted File');
        if (open && root) {
          await vscode.window.showTextDocument(vscode.Uri.joinPath(vscode.Uri.file(root), first.path));
        }
      }),
    ),
    vscode.commands.registerCommand('threadline.discardWorktree', (node?: TreeNode) =>
      run('Discard worktree', async () => {
        const thread = target(node);
        if (!thread) return;
        const preview = await server.request('thread/worktree/discard', {
          threadId: thread.id,
          dryRun: true,
        });
        const detail = lossDetail(preview);
        const choice = await vscode.window.showWarningMessage(
          `Remove the worktree and the branch ${preview.branch}?`,
          { modal: true, detail },
          'Discard',
        );
        if (choice !== 'Discard') return;
        const done = await server.request('thread/worktree/discard', { threadId: thread.id });
        // The row loses its branch and its worktree menu.
        await vscode.commands.executeCommand('threadline.refreshThreads');
        void vscode.window.showInformationMessage(
          `Removed ${done.worktreePath} and the branch ${done.branch}.`,
        );
      }),
    ),
    // Archiving a worktree thread asks what becomes of its worktree: kept (until discarded) or discarded.
    vscode.commands.registerCommand('threadline.archiveWorktreeThread', (node?: TreeNode) =>
      run('Archive', async () => {
        const thread = target(node);
        if (!thread) return;
        const preview = await server.request('thread/worktree/discard', {
          threadId: thread.id,
          dryRun: true,
        });
        const choice = await vscode.window.showWarningMessage(
          `Archive the thread. Keep or discard its worktree (${preview.branch})?`,
          {
            modal: true,
            detail: `Keep: the worktree and branch stay until you discard them.\nDiscard removes them. ${lossDetail(preview)}`,
          },
          'Keep Worktree',
          'Discard Worktree',
        );
        if (!choice) return;
        if (choice === 'Discard Worktree') {
          await server.request('thread/worktree/discard', { threadId: thread.id });
        }
        await server.request('thread/archive', { threadId: thread.id });
      }),
    ),
    vscode.commands.registerCommand('threadline.openWorktreeWindow', (node?: TreeNode) =>
      run('Open worktree in new window', async () => {
        const thread = target(node);
        if (!thread) return;
        await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(thread.cwd), {
          forceNewWindow: true,
        });
      }),
    ),
  ];
}
