// Opens the agent's changes in VS Code's diff editors: one file ("Open diff" on a fileChange item) or
// many in one multi-file diff (a whole turn's, a worktree thread's against its base). The "before" side is served from memory by a
// content provider; the "after" side is the file on disk.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readTextOrEmpty } from '../files/readText';
import { changedFiles, contentBefore, sidesOfChange } from './changeBase';

const scheme = 'threadline-before';
const keptContents = 200;

export class DiffViews implements vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private next = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, {
      provideTextDocumentContent: (uri) => this.contents.get(uri.query) ?? '',
    });
  }

  /** A moved file's text is at `movePath` now; its diff reads the same from there. */
  async openFileDiff(
    cwd: string,
    file: string,
    kind: string,
    diff: string,
    movePath?: string,
  ): Promise<void> {
    const uri = resolve(cwd, movePath ?? file);
    const sides = sidesOfChange(kind, diff, await readTextOrEmpty(uri));
    if (!sides) return this.showRawDiff(diff);
    const left = this.remember(uri, sides.before);
    const right = kind === 'delete' ? this.remember(uri, '') : uri;
    await vscode.commands.executeCommand(
      'vscode.diff',
      left,
      right,
      `${path.basename(file)}${movePath ? ` → ${path.basename(movePath)}` : ''} (Threadline change)`,
    );
  }

  /** A multi-file unified diff (paths relative to `cwd`) in one multi-file diff editor. */
  async openTurnChanges(cwd: string, diff: string, title = 'Changes in this turn'): Promise<void> {
    const resources: [vscode.Uri, vscode.Uri, vscode.Uri][] = [];
    for (const file of changedFiles(diff)) {
      const uri = resolve(cwd, file.path);
      const before = contentBefore(await readTextOrEmpty(uri), file.patch);
      if (before !== undefined) resources.push([uri, this.remember(uri, before), uri]);
    }
    if (resources.length === 0) return this.showRawDiff(diff);
    await vscode.commands.executeCommand('vscode.changes', title, resources);
  }

  dispose(): void {
    this.registration.dispose();
    this.contents.clear();
  }

  /** The file changed again since: the diff no longer applies, so show it as text. */
  private async showRawDiff(diff: string): Promise<void> {
    const document = await vscode.workspace.openTextDocument({ content: diff, language: 'diff' });
    await vscode.window.showTextDocument(document, { preview: true });
  }

  private remember(uri: vscode.Uri, content: string): vscode.Uri {
    const key = String(this.next++);
    this.contents.set(key, content);
    // Old diff tabs are long closed by then; their contents need not live forever.
    if (this.contents.size > keptContents) this.contents.delete(this.contents.keys().next().value!);
    return uri.with({ scheme, query: key });
  }
}

function resolve(cwd: string, file: string): vscode.Uri {
  return vscode.Uri.file(path.isAbsolute(file) ? file : path.join(cwd, file));
}
