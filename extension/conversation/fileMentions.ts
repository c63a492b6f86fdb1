// `@` mentions: the server's fuzzyFileSearch over the workspace folders (ranked, .gitignore honoured,
// with the matched characters for highlighting), as workspace-relative paths, files and folders. An
// empty query lists the files open in editor tabs, the likeliest ones to mention.
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ThreadlineServer } from '../server/threadlineServer';

export interface FileMention {
  /** Workspace-relative, as the composer inserts it. */
  path: string;
  /** Offsets into path of the characters the query matched. */
  indices: number[];
  isFolder?: boolean;
}

export class FileMentions {
  constructor(private readonly server: ThreadlineServer) {}

  async find(query: string, limit = 50): Promise<FileMention[]> {
    const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    if (!query.trim() || roots.length === 0) return openFiles().slice(0, limit);
    const { files } = await this.server.request('fuzzyFileSearch', {
      query,
      roots,
      // Typing fast supersedes the previous keystroke's search instead of queueing behind it.
      cancellationToken: 'composer-mentions',
    });
    return files.slice(0, limit).map((file) => {
      const path = vscode.workspace.asRelativePath(join(file.root, file.path), roots.length > 1);
      // A multi-root workspace prefixes the folder's name; the indices shift by as much.
      const shift = path.length - file.path.length;
      const indices = (file.indices ?? []).map((i) => i + shift);
      return { path, indices, ...(file.match_type === 'directory' ? { isFolder: true } : {}) };
    });
  }
}

function openFiles(): FileMention[] {
  const paths = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .map((tab) => (tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined))
    .filter((uri): uri is vscode.Uri => uri?.scheme === 'file' && !!vscode.workspace.getWorkspaceFolder(uri))
    .map((uri) => vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1));
  return [...new Set(paths)].map((path) => ({ path, indices: [] }));
}
