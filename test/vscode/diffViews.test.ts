// "Open diff" on a completed file change, in the real editor: the diff tab's sides are the text before
// the change (rebuilt from the item's diff) and the file as it is on disk now.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DiffViews } from '../../extension/conversation/diffViews';

const textOf = async (uri: vscode.Uri) => (await vscode.workspace.openTextDocument(uri)).getText();

describe('Open diff on an applied change', () => {
  const dir = () => join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'moved');
  let diffs: DiffViews;

  before(() => {
    mkdirSync(dir(), { recursive: true });
    diffs = new DiffViews();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    diffs.dispose();
    rmSync(dir(), { recursive: true, force: true });
  });

  it('shows a moved file where it is now, beside its text before the change', async () => {
    writeFileSync(join(dir(), 'b.ts'), 'one\nTWO\nthree\n');
    const diff = '--- a/a.ts\n+++ b/b.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n';
    await diffs.openFileDiff(dir(), 'a.ts', 'update', diff, 'b.ts');
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff tab is open');
    assert.equal(input.modified.fsPath, join(dir(), 'b.ts'));
    assert.equal(await textOf(input.original), 'one\ntwo\nthree\n');
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'a.ts → b.ts (Threadline change)');
  });
});
