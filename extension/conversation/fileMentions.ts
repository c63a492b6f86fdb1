// `@` mentions: workspace files ranked by a fuzzy matcher, as workspace-relative paths. The file list is
// read once and reused for a few seconds, so each keystroke only ranks.
import fuzzysort from 'fuzzysort';
import * as vscode from 'vscode';

const maxFiles = 20_000;
const freshForMs = 10_000;
const excluded = '**/{node_modules,.git,dist,out,build,.cache,.venv,__pycache__}/**';

export class FileMentions {
  private files: { at: number; paths: Promise<string[]> } | undefined;

  async find(query: string, limit = 50): Promise<string[]> {
    const paths = await this.workspaceFiles();
    if (!query) return paths.slice(0, limit);
    return fuzzysort.go(query, paths, { limit, threshold: 0.3 }).map((r) => r.target);
  }

  private workspaceFiles(): Promise<string[]> {
    if (!this.files || Date.now() - this.files.at > freshForMs) {
      const paths = vscode.workspace
        .findFiles('**/*', excluded, maxFiles)
        .then((uris) => uris.map((uri) => vscode.workspace.asRelativePath(uri, false)).sort());
      this.files = { at: Date.now(), paths: Promise.resolve(paths) };
    }
    return this.files.paths;
  }
}
