// A file's text through VS Code's file system (so remote and virtual workspaces work too); a file
// that does not exist or cannot be read counts as empty, which is how a diff shows a file being added.
import * as vscode from 'vscode';

export async function readTextOrEmpty(uri: vscode.Uri): Promise<string> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return '';
  }
}
