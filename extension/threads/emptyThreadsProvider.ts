// Until the server-backed tree lands, the Threads view has no items, so VS Code shows its welcome content.
import type * as vscode from 'vscode';

export class EmptyThreadsProvider implements vscode.TreeDataProvider<never> {
  getTreeItem(element: never): vscode.TreeItem {
    return element;
  }

  getChildren(): never[] {
    return [];
  }
}
