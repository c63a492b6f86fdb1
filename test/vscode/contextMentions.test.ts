// What `@` context becomes in the real editor: a terminal without shell integration attaches a note
// (not an error), a shell terminal's last command its output, problems the editor's diagnostics, and
// a selection of a file with unsaved changes the text as the editor holds it; a saved file's lines go
// as a mention item for the server to read.
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ContextMentions } from '../../extension/conversation/contextMentions';
import { FileMentions } from '../../extension/conversation/fileMentions';
import type { UserInput } from '../../server/protocol/userInput';
import type { MentionSuggestion } from '../../webview/messages';
import { until } from '../support/until';
import { threadlineServer } from './extensionApi';

const textOf = (item: UserInput | undefined) => (item?.type === 'text' ? item.text : JSON.stringify(item));

describe('@ context in the editor', function () {
  this.timeout(90_000);
  const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  let mentions: ContextMentions;
  const disposables: vscode.Disposable[] = [];

  before(async () => {
    mentions = new ContextMentions(new FileMentions(await threadlineServer()));
    writeFileSync(join(root(), 'ctx.ts'), 'one\ntwo\nthree\nfour\n');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const terminal of vscode.window.terminals) terminal.dispose();
    for (const disposable of disposables) disposable.dispose();
    mentions.dispose();
    rmSync(join(root(), 'ctx.ts'), { force: true });
  });

  it('says a terminal has no shell integration instead of failing', async () => {
    const written = new vscode.EventEmitter<string>();
    disposables.push(written);
    const terminal = vscode.window.createTerminal({
      name: 'no-integration',
      pty: { onDidWrite: written.event, open: () => written.fire('hello\r\n'), close: () => {} },
    });
    terminal.show();
    await until(() => vscode.window.activeTerminal === terminal, 10_000);
    const [item] = await mentions.resolve([{ kind: 'terminal' }]);
    assert.match(textOf(item), /The terminal "no-integration" has no shell integration/);
    terminal.dispose();
  });

  it("attaches a shell terminal's last command with its output", async function () {
    const terminal = vscode.window.createTerminal({ name: 'shell', shellPath: '/bin/bash' });
    terminal.show();
    await until(() => !!(terminal as { shellIntegration?: unknown }).shellIntegration, 30_000);
    // Output is read from when the extension hears the command started: this one waits a moment first.
    terminal.sendText('sleep 1; echo mention-$((40 + 2))');
    let text = '';
    await until(async () => {
      text = textOf((await mentions.resolve([{ kind: 'terminal' }]))[0]);
      return text.includes('(exit code 0)');
    }, 30_000);
    assert.match(text, /^The output of the command "sleep 1; echo mention-\$\(\(40 \+ 2\)\)"/);
    assert.match(text, /\nmention-42\n/);
    terminal.dispose();
  });

  it("attaches a file's problems from the editor's diagnostics", async () => {
    const uri = vscode.Uri.file(join(root(), 'ctx.ts'));
    const collection = vscode.languages.createDiagnosticCollection('mention-test');
    disposables.push(collection);
    collection.set(uri, [
      new vscode.Diagnostic(new vscode.Range(1, 2, 1, 5), 'two is wrong', vscode.DiagnosticSeverity.Warning),
      new vscode.Diagnostic(new vscode.Range(3, 0, 3, 4), 'four is worse', vscode.DiagnosticSeverity.Error),
    ]);
    const [item] = await mentions.resolve([{ kind: 'problems', path: 'ctx.ts' }]);
    const text = textOf(item);
    assert.match(text, /the file ctx\.ts: 2\b/);
    assert.match(text, /ctx\.ts:4:1 error: four is worse\nctx\.ts:2:3 warning: two is wrong\n```$/);
  });

  it('offers workspace symbols and attaches the lines of the whole declaration', async () => {
    const file = join(root(), 'sym.ts');
    writeFileSync(
      file,
      '// symbols\nexport class MentionedParser {\n  parse(): number {\n    return 1;\n  }\n}\n',
    );
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    let symbol: MentionSuggestion | undefined;
    // The language server starts with the file: its symbols come once it has read the project.
    await until(async () => {
      symbol = (await mentions.suggest('MentionedParser')).find((s) => s.kind === 'symbol');
      return !!symbol;
    }, 45_000);
    assert.equal(symbol!.insert, '@sym:MentionedParser');
    assert.equal(symbol!.icon, 'symbol-class');
    const [item] = await mentions.resolve([
      { kind: 'symbol', name: 'MentionedParser', location: symbol!.location },
    ]);
    assert.deepEqual(item, { type: 'mention', name: 'MentionedParser', path: `${file}#L2-6` });
    rmSync(file, { force: true });
  });

  it('sends a saved selection as a mention item, and unsaved text as the editor holds it', async () => {
    const [saved] = await mentions.resolve([{ kind: 'selection', path: 'ctx.ts', startLine: 2, endLine: 3 }]);
    assert.deepEqual(saved, { type: 'mention', name: 'ctx.ts:2-3', path: `${join(root(), 'ctx.ts')}#L2-3` });

    const editor = await vscode.window.showTextDocument(vscode.Uri.file(join(root(), 'ctx.ts')));
    await editor.edit((edit) => edit.replace(new vscode.Range(1, 0, 1, 3), 'TWO (unsaved)'));
    editor.selection = new vscode.Selection(1, 0, 3, 0);
    assert.deepEqual(mentions.selectionToken(editor), { label: 'ctx.ts:2-3', insert: '@ctx.ts:2-3' });
    const [live] = await mentions.resolve([{ kind: 'selection', path: 'ctx.ts', startLine: 2, endLine: 3 }]);
    assert.match(textOf(live), /^Lines 2-3 of ctx\.ts, as open in the editor with unsaved changes/);
    assert.match(textOf(live), /\n```typescript\nTWO \(unsaved\)\nthree\n```$/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
