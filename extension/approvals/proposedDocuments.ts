// The two sides of a proposed file change as editor documents: the file as it is now through a content
// provider (`threadline-current:`), the proposed file through an in-memory file system
// (`threadline-proposed:`), so the diff editor can let the user edit the proposal before accepting it.
// Both are looked up by URI in a map filled per pending request; no content travels in a URI. The file
// system is writable only while the server takes edited answers (it is re-registered when that changes).
import * as vscode from 'vscode';
import { Emitter } from '../../webview/common/emitter';
import { Disposable, toDisposable, type IDisposable } from '../../webview/common/lifecycle';

export const currentScheme = 'threadline-current';
export const proposedScheme = 'threadline-proposed';

interface Side {
  /** The pending request it belongs to. */
  key: string;
  text: string;
  mtime: number;
}

export class ProposedDocuments extends Disposable {
  private readonly sides = new Map<string, Side>();
  private readonly fileChanges = this._register(new Emitter<vscode.FileChangeEvent[]>());
  private proposedRegistration: IDisposable | undefined;
  private writable: boolean | undefined;

  constructor() {
    super();
    this._registerAll(
      vscode.workspace.registerTextDocumentContentProvider(currentScheme, {
        provideTextDocumentContent: (uri) => this.sides.get(uri.toString())?.text,
      }),
      toDisposable(() => this.proposedRegistration?.dispose()),
      toDisposable(() => this.sides.clear()),
    );
  }

  /** Registers the proposed side's file system, writable or not; a no-op when that is unchanged. */
  setWritable(writable: boolean): void {
    if (writable === this.writable) return;
    this.writable = writable;
    this.proposedRegistration?.dispose();
    this.proposedRegistration = vscode.workspace.registerFileSystemProvider(
      proposedScheme,
      this.fileSystem(),
      {
        isCaseSensitive: true,
        isReadonly: !writable,
      },
    );
  }

  /** Stores both sides of one file of a request; `name` is how the tab shows the file. */
  add(key: string, name: string, current: string, proposed: string): { left: vscode.Uri; right: vscode.Uri } {
    // The key goes in the authority, so the breadcrumbs show the file's own path only.
    const path = `/${name.replace(/^\/+/, '')}`;
    const left = vscode.Uri.from({ scheme: currentScheme, authority: `r${encodeURIComponent(key)}`, path });
    const right = vscode.Uri.from({ scheme: proposedScheme, authority: `r${encodeURIComponent(key)}`, path });
    const mtime = Date.now();
    this.sides.set(left.toString(), { key, text: current, mtime });
    this.sides.set(right.toString(), { key, text: proposed, mtime });
    return { left, right };
  }

  /** The proposed side's text as the user left it: the open document (saved or not), else what is stored. */
  proposedText(right: vscode.Uri): string | undefined {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === right.toString());
    return open ? open.getText() : this.sides.get(right.toString())?.text;
  }

  /** Forgets a request's contents (its tabs are closed by then). */
  drop(key: string): void {
    for (const [uri, side] of this.sides) if (side.key === key) this.sides.delete(uri);
  }

  private fileSystem(): vscode.FileSystemProvider {
    const find = (uri: vscode.Uri) => {
      const side = this.sides.get(uri.toString());
      if (!side) throw vscode.FileSystemError.FileNotFound(uri);
      return side;
    };
    const refuse = (uri: vscode.Uri) => {
      throw vscode.FileSystemError.NoPermissions(uri);
    };
    return {
      onDidChangeFile: this.fileChanges.event,
      watch: () => new vscode.Disposable(() => {}),
      stat: (uri) => {
        const side = find(uri);
        const size = Buffer.byteLength(side.text);
        return { type: vscode.FileType.File, ctime: side.mtime, mtime: side.mtime, size };
      },
      readDirectory: () => [],
      createDirectory: refuse,
      readFile: (uri) => new TextEncoder().encode(find(uri).text),
      writeFile: (uri, content) => {
        const side = find(uri);
        if (!this.writable) refuse(uri);
        side.text = new TextDecoder().decode(content);
        side.mtime = Date.now();
        this.fileChanges.fire([{ type: vscode.FileChangeType.Changed, uri }]);
      },
      delete: refuse,
      rename: refuse,
    };
  }
}
