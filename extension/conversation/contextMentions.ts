// What `@` offers from the editor (the selection, the active file, problems, the terminal's last
// command), with files, folders and workspace symbols; and, when a prompt is sent, the input items
// for the context its `@` tokens name. What lives on disk goes as a `mention` item the server reads
// (and bounds); what only the editor has (problems, a terminal, unsaved text) as a bounded text item.
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import type { UserInput } from '../../server/protocol/userInput';
import { Disposable } from '../../webview/common/lifecycle';
import { tokenPath } from '../../webview/composer/contextMention';
import type { ContextMention, MentionSuggestion } from '../../webview/messages';
import { liveTextItem, problemsItem, terminalItem, type Problem } from './contextItems';
import type { FileMentions } from './fileMentions';
import { TerminalCaptures } from './terminalCapture';

type Location = NonNullable<MentionSuggestion['location']>;

const SYMBOL_TIMEOUT_MS = 1500;

export class ContextMentions extends Disposable {
  private readonly terminals = this._register(new TerminalCaptures());
  /** The text editor used last: a conversation in an editor tab takes the focus from it. */
  private lastEditor = vscode.window.activeTextEditor;

  constructor(private readonly files: FileMentions) {
    super();
    this._register(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor) this.lastEditor = editor;
      }),
    );
  }

  /** The `@` token for the editor's selection (whole lines), or undefined with nothing selected. */
  selectionToken(editor = this.editor()): { label: string; insert: string } | undefined {
    if (!editor || editor.selection.isEmpty) return undefined;
    const lines = lineSuffix(lineRange(editor.selection));
    const path = shownPath(editor.document.uri);
    return { label: `${path}:${lines}`, insert: `@${tokenPath(path)}:${lines}` };
  }

  async suggest(query: string): Promise<MentionSuggestion[]> {
    const [context, files, symbols] = await Promise.all([
      this.editorContext(),
      this.files.find(query, 30),
      query.trim().length >= 2 ? this.symbols(query) : [],
    ]);
    return [
      ...context,
      ...files.map(({ path, indices, isFolder }): MentionSuggestion =>
        isFolder
          ? {
              kind: 'folder',
              label: `${path}/`,
              indices,
              icon: 'folder',
              detail: 'Folder listing',
              insert: `@${tokenPath(path)}/`,
            }
          : { kind: 'file', label: path, indices, icon: 'file', insert: tokenPath(path) },
      ),
      ...symbols,
    ];
  }

  /** The input items for `mentions`; a path that names nothing attaches nothing (the text still says it). */
  async resolve(mentions: ContextMention[]): Promise<UserInput[]> {
    const items = await Promise.all(mentions.map((mention) => this.resolveOne(mention)));
    return items.filter((item): item is UserInput => !!item);
  }

  private async resolveOne(mention: ContextMention): Promise<UserInput | undefined> {
    switch (mention.kind) {
      case 'terminal':
        return terminalItem(await this.terminals.capture());
      case 'problems': {
        const uri = mention.path === undefined ? undefined : this.uriOf(mention.path);
        if (mention.path !== undefined && !uri) return undefined;
        const entries = uri
          ? [[uri, vscode.languages.getDiagnostics(uri)] as const]
          : vscode.languages.getDiagnostics();
        return problemsItem(
          mention.path,
          entries.flatMap(([file, list]) => list.map((d) => problem(file, d))),
        );
      }
      case 'folder': {
        const uri = this.uriOf(mention.path);
        return uri && { type: 'mention', name: `${mention.path}/`, path: uri.fsPath };
      }
      case 'file':
      case 'selection': {
        const uri = this.uriOf(mention.path);
        if (!uri) return undefined;
        const lines =
          mention.kind === 'selection' ? { start: mention.startLine, end: mention.endLine } : undefined;
        const name = lines ? `${mention.path}:${lineSuffix(lines)}` : mention.path;
        return this.fileItem(uri, name, lines);
      }
      case 'symbol': {
        const location = mention.location ?? (await this.findSymbol(mention.name));
        const uri = location && this.uriOf(location.path);
        if (!location || !uri) return undefined;
        const lines = await declarationLines(uri, mention.name, location);
        return this.fileItem(uri, mention.name, lines);
      }
    }
  }

  /** A file's lines as the server reads them, or as the editor holds them when it has unsaved changes. */
  private fileItem(uri: vscode.Uri, name: string, lines?: { start: number; end: number }): UserInput {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty) {
      const range = lines && new vscode.Range(lines.start - 1, 0, lines.end, 0);
      return liveTextItem(
        { path: shownPath(uri), startLine: lines?.start, endLine: lines?.end, language: open.languageId },
        open.getText(range),
        `@${name}`,
      );
    }
    return { type: 'mention', name, path: lines ? `${uri.fsPath}#L${lines.start}-${lines.end}` : uri.fsPath };
  }

  private async editorContext(): Promise<MentionSuggestion[]> {
    const context: MentionSuggestion[] = [];
    const editor = this.editor();
    if (editor) {
      const path = shownPath(editor.document.uri);
      const selection = this.selectionToken(editor);
      if (selection)
        context.push({ kind: 'context', ...selection, icon: 'list-selection', detail: 'Selection' });
      context.push({
        kind: 'context',
        label: path,
        insert: `@${tokenPath(path)}`,
        icon: 'file-code',
        detail: 'Active file',
      });
      const count = vscode.languages.getDiagnostics(editor.document.uri).length;
      context.push({
        kind: 'context',
        label: `problems:${path}`,
        insert: `@problems:${tokenPath(path)}`,
        icon: 'warning',
        detail: `${count} in the active file`,
      });
    }
    const all = vscode.languages.getDiagnostics().reduce((sum, [, list]) => sum + list.length, 0);
    context.push({
      kind: 'context',
      label: 'problems',
      insert: '@problems',
      icon: 'warning',
      detail: `${all} in the workspace`,
    });
    const terminal = await this.terminals.capture();
    if (terminal.kind !== 'noTerminal') {
      const detail =
        terminal.kind === 'command'
          ? `Last command in "${terminal.terminal}": ${terminal.commandLine}`
          : terminal.kind === 'noCommand'
            ? `No command has run in "${terminal.terminal}" yet`
            : `"${terminal.terminal}" has no shell integration: its output cannot be read`;
      context.push({ kind: 'context', label: 'terminal', insert: '@terminal', icon: 'terminal', detail });
    }
    return context;
  }

  /** Workspace symbols from the languages' providers; a slow provider is not waited for. */
  private async symbols(query: string): Promise<MentionSuggestion[]> {
    const found = await withTimeout(
      vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
        'vscode.executeWorkspaceSymbolProvider',
        query,
      ),
      SYMBOL_TIMEOUT_MS,
    ).catch(() => undefined);
    // A token ends at a space: names with spaces or quotes (a test's title) cannot be one.
    return (found ?? [])
      .filter((symbol) => /^[^\s"]+$/.test(symbol.name) && symbol.location.uri.scheme === 'file')
      .slice(0, 20)
      .map((symbol) => {
        const path = shownPath(symbol.location.uri);
        const kind = vscode.SymbolKind[symbol.kind] ?? 'Variable';
        const location = {
          path,
          startLine: symbol.location.range.start.line + 1,
          endLine: symbol.location.range.end.line + 1,
        };
        return {
          kind: 'symbol',
          label: symbol.name,
          detail: `${kind.toLowerCase()} in ${path}:${location.startLine}`,
          icon: `symbol-${kind.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}`,
          insert: `@sym:${symbol.name}`,
          location,
        };
      });
  }

  private async findSymbol(name: string): Promise<Location | undefined> {
    const [match] = (await this.symbols(name)).filter((s) => s.label === name);
    return match?.location;
  }

  private editor(): vscode.TextEditor | undefined {
    const editor = vscode.window.activeTextEditor ?? this.lastEditor;
    // A closed editor's document is gone: it is no context any more.
    return editor && !editor.document.isClosed ? editor : undefined;
  }

  /** A path as the composer shows it, back to a file: workspace-relative (a multi-root one names its folder), or absolute. */
  private uriOf(path: string): vscode.Uri | undefined {
    if (isAbsolute(path)) return existsSync(path) ? vscode.Uri.file(path) : undefined;
    const folders = vscode.workspace.workspaceFolders ?? [];
    const [head, ...rest] = path.split('/');
    const candidates = [
      ...(folders.length > 1
        ? folders.filter((f) => f.name === head).map((f) => join(f.uri.fsPath, ...rest))
        : []),
      ...folders.map((f) => join(f.uri.fsPath, path)),
    ];
    const found = candidates.find((candidate) => existsSync(candidate));
    return found ? vscode.Uri.file(found) : undefined;
  }
}

/** 1-based lines of a selection; one that ends at the start of a line does not take that line. */
function lineRange(selection: vscode.Selection): { start: number; end: number } {
  const start = selection.start.line + 1;
  const endLine =
    selection.end.character === 0 && selection.end.line > selection.start.line
      ? selection.end.line
      : selection.end.line + 1;
  return { start, end: endLine };
}

/** `10-20`, or `10` for one line: how a token names lines. */
const lineSuffix = ({ start, end }: { start: number; end: number }) =>
  start === end ? `${start}` : `${start}-${end}`;

function shownPath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/**
 * A symbol's whole declaration: workspace symbol providers often give only the name's line, a
 * document's symbols the full range. Falls back to the lines given.
 */
async function declarationLines(
  uri: vscode.Uri,
  name: string,
  at: Location,
): Promise<{ start: number; end: number }> {
  const given = { start: at.startLine, end: at.endLine };
  const symbols = await withTimeout(
    vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>(
      'vscode.executeDocumentSymbolProvider',
      uri,
    ),
    SYMBOL_TIMEOUT_MS,
  ).catch(() => undefined);
  const line = at.startLine - 1;
  const search = (list: vscode.DocumentSymbol[]): vscode.DocumentSymbol | undefined => {
    for (const symbol of list) {
      if (symbol.range.start.line > line || symbol.range.end.line < line) continue;
      const inner = search(symbol.children ?? []);
      if (inner) return inner;
      if (symbol.name === name) return symbol;
    }
    return undefined;
  };
  const found = Array.isArray(symbols) && 'children' in (symbols[0] ?? {}) ? search(symbols) : undefined;
  return found ? { start: found.range.start.line + 1, end: found.range.end.line + 1 } : given;
}

function problem(uri: vscode.Uri, diagnostic: vscode.Diagnostic): Problem {
  const severity = (['error', 'warning', 'info', 'hint'] as const)[diagnostic.severity] ?? 'error';
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return {
    path: shownPath(uri),
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    severity,
    message: diagnostic.message,
    source: diagnostic.source,
    code: code === undefined ? undefined : String(code),
  };
}

function withTimeout<T>(work: Thenable<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    work.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}
