// The thin VS Code layer over the tree model: each node as a TreeItem. Stable ids keep selection and
// expansion when a node changes; icons follow the thread's status.
import * as vscode from 'vscode';
import { Emitter } from '../../webview/common/emitter';
import { Disposable } from '../../webview/common/lifecycle';
import { threadTitle } from '../../webview/common/threadTitle';
import { relativeTime } from './recency';
import { statusLook, statusText, type StatusLook } from './threadLabels';
import { originTag, threadOrigin, type ThreadOrigin } from './threadOrigin';
import type { ThreadTreeModel } from './threadTreeModel';
import type { ThreadNode, TreeNode } from './treeNodes';
import { worktreeBranch } from './worktreeCommands';

const icons: Record<StatusLook, vscode.ThemeIcon> = {
  running: new vscode.ThemeIcon('loading~spin'),
  waiting: new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('list.warningForeground')),
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
  idle: new vscode.ThemeIcon('comment-discussion'),
};

/** A turn that ended while nobody saw it, until the thread is looked at. */
const unseenLook = {
  completed: {
    text: 'done',
    icon: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')),
  },
  failed: {
    text: 'failed',
    icon: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
  },
};

export class ThreadTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this._register(new Emitter<TreeNode | TreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly model: ThreadTreeModel,
    /** Told after each listing of the root whether it failed. */
    private readonly rootListed: (error: string | undefined) => void,
    /** Whether the client holds a prompt of this thread (its status may not say so yet, or at all). */
    private readonly hasPrompt: (threadId: string) => boolean,
    /** The server's own home (initialize's codexHome): threads outside it are the Codex history's. */
    private readonly serverHome: () => string | undefined = () => undefined,
    /** How the thread's last turn ended when nobody saw it end (see TurnAlerts), else undefined. */
    private readonly unseenEnd: (threadId: string) => 'completed' | 'failed' | undefined = () => undefined,
    /** A worktree thread's count of files changed against its base, once known (WorktreeCounts). */
    private readonly changedCount: (threadId: string) => number | undefined = () => undefined,
  ) {
    super();
    this._register(model.onDidChange((nodes) => this.changed.fire(nodes)));
  }

  /** Redraws a node whose look changed outside the model (a prompt arrived or settled). */
  refresh(node: TreeNode): void {
    this.changed.fire(node);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    const children = await this.model.children(node);
    if (!node) this.rootListed(this.model.error);
    return children;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.model.parent(node);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `group:${node.group}`;
        item.contextValue = 'group';
        return item;
      }
      case 'archived': {
        const item = new vscode.TreeItem('Archived', vscode.TreeItemCollapsibleState.Collapsed);
        item.id = 'archived';
        item.iconPath = new vscode.ThemeIcon('archive');
        item.contextValue = 'archivedGroup';
        return item;
      }
      case 'loadMore': {
        const item = new vscode.TreeItem('Load more…');
        item.id = `loadMore:${node.section}`;
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = { command: 'threadline.loadMore', title: 'Load more', arguments: [node.section] };
        return item;
      }
      case 'folder': {
        const item = new vscode.TreeItem(node.section.name, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `section:${node.section.id}`;
        item.iconPath = new vscode.ThemeIcon(node.section.appearance?.icon || 'folder');
        item.contextValue = 'section'; // not /^thread/: the thread commands leave folders alone
        return item;
      }
      case 'thread':
        return this.threadItem(node);
    }
  }

  private threadItem(node: ThreadNode): vscode.TreeItem {
    const { thread } = node;
    const look = statusLook(thread.status, this.hasPrompt(thread.id) && !node.archived);
    const item = new vscode.TreeItem(threadTitle(thread));
    item.id = `thread:${thread.id}`;
    const when = relativeTime(thread.updatedAt, new Date());
    const origin = threadOrigin(thread, this.serverHome());
    const ended = look === 'idle' && !node.archived ? this.unseenEnd(thread.id) : undefined;
    const news = ended ? unseenLook[ended] : undefined;
    const branch = node.archived ? null : worktreeBranch(thread);
    // The sidebar is narrow: the branch without its `threadline/` prefix; the tooltip has it whole.
    const shortBranch = branch?.slice('threadline/'.length);
    const count = branch ? this.changedCount(thread.id) : undefined;
    // Before the branch, so a narrow side bar cuts the branch, not the count.
    const changed = count === undefined ? undefined : `${count} changed`;
    item.description = [news?.text ?? statusText[look], changed, shortBranch, originTag(origin), when]
      .filter(Boolean)
      .join(' · ');
    item.iconPath = node.archived
      ? new vscode.ThemeIcon('archive')
      : (news?.icon ??
        (origin.codexHistory && look === 'idle'
          ? new vscode.ThemeIcon('history')
          : branch && look === 'idle'
            ? new vscode.ThemeIcon('git-branch')
            : icons[look]));
    // A Codex thread cannot be renamed or archived here: the menus leave those out.
    // A worktree thread has its own menu (apply, discard, open, and an archive that asks about it).
    item.contextValue = node.archived
      ? 'thread.archived'
      : origin.codexHistory
        ? 'thread.codex'
        : branch
          ? 'thread.worktree'
          : 'thread';
    item.tooltip = tooltip(node, look, origin);
    item.accessibilityInformation = { label: `${threadTitle(thread)}, ${item.description}` };
    item.command = { command: 'threadline.openFromTree', title: 'Open', arguments: [thread.id] };
    return item;
  }
}

function tooltip(
  { thread, archived }: ThreadNode,
  look: StatusLook,
  origin: ThreadOrigin,
): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.supportThemeIcons = true;
  if (thread.name) md.appendMarkdown(`**${escape(thread.name)}**\n\n`);
  if (thread.preview) md.appendText(`${thread.preview.trim().slice(0, 300)}\n\n`);
  const rows: [string, string][] = [
    ['Folder', thread.cwd],
    ['Model', [thread.modelProvider, thread.model].filter(Boolean).join(' · ')],
    ['Created', new Date(thread.createdAt * 1000).toLocaleString()],
    ['Updated', new Date(thread.updatedAt * 1000).toLocaleString()],
    ['ID', thread.id],
  ];
  if (thread.forkedFromId) rows.push(['Forked from', thread.forkedFromId]);
  const branch = worktreeBranch(thread);
  if (branch && !archived) rows.push(['Worktree branch', branch]);
  if (origin.client && !origin.codexHistory) rows.push(['Started by', origin.client]);
  if (origin.codexHistory) {
    const by = origin.client ? ` (${origin.client})` : '';
    rows.unshift([
      '',
      `$(history) From your Codex history${by}: opening it continues it in Threadline as a copy`,
    ]);
  }
  if (archived) rows.unshift(['', '$(archive) Archived']);
  else if (look === 'waiting') rows.unshift(['', '$(bell-dot) Waiting for your approval']);
  md.appendMarkdown(rows.map(([k, v]) => (k ? `${k}: \`${v.replace(/`/g, "'")}\`` : v)).join('  \n'));
  return md;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
