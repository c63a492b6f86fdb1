// Review changes and Undo changes on a turn, in the installed .vsix, driven as a user: the turn's
// changes open in one multi-file diff editor, and Undo changes asks with the list of files, puts them
// back on disk, and the view shows the revert (a notification and a turn with the files put back).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { useWorkbench } from '../support/harness/uiFixture';
import { screenshot } from '../support/harness/workbench';
import { newThread, send, useScriptedModel } from './conversationPage';

const patch = [
  '*** Begin Patch',
  '*** Update File: README.md',
  '@@',
  ' # Demo',
  '-old line',
  '+new line',
  '*** Add File: notes.txt',
  '+first note',
  '*** End Patch',
].join('\n');

describe('reviewing and undoing a turn (installed .vsix)', function () {
  this.timeout(120_000);
  const wb = useWorkbench({ 'README.md': '# Demo\nold line\n', 'keep.txt': 'kept\n' });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'workspace-write' });

  async function changedTurn() {
    model.script(
      { output: [{ toolCall: { name: 'apply_patch', arguments: patch, callId: 'call_1', custom: true } }] },
      { output: [{ text: 'Edited the readme and added notes.' }] },
    );
    const frame = await newThread(wb.page);
    await send(frame, 'Edit the readme');
    await frame.locator('[data-turn-status="completed"]').first().waitFor({ timeout: 30_000 });
    assert.equal(readFileSync(join(wb.workspace, 'README.md'), 'utf8'), '# Demo\nnew line\n');
    return frame;
  }

  it('opens the whole turn in one multi-file diff editor', async () => {
    const frame = await changedTurn();
    await frame.getByRole('button', { name: /Review changes/ }).click();
    const tab = wb.page.locator('.tab', { hasText: 'Changes in this turn' });
    await tab.waitFor({ timeout: 15_000 });
    assert.equal(await tab.count(), 1, 'one editor for the whole turn');
    const editor = wb.page.locator('.multiDiffEditor');
    await editor.getByText('README.md').first().waitFor({ timeout: 15_000 });
    await editor.getByText('notes.txt').first().waitFor({ timeout: 15_000 });
    assert.equal(
      await wb.page.locator('.tab', { hasText: /README\.md|notes\.txt/ }).count(),
      0,
      'no tab per file',
    );
    await screenshot(wb.page, 'turn-review-changes');
    assert.deepEqual(wb.browser.consoleErrors, []);
  });

  it('undoes the turn after a confirmation listing the files, and says which it skipped', async () => {
    const frame = await changedTurn();
    // The user edits one of the files afterwards: that one must be left alone.
    writeFileSync(join(wb.workspace, 'notes.txt'), 'my own notes\n');
    await frame.getByRole('button', { name: /Undo changes/ }).click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15_000 });
    await dialog.getByText('README.md').waitFor();
    await dialog.getByText(/notes\.txt — will be skipped: it was changed after this turn/).waitFor();
    await screenshot(wb.page, 'turn-undo-confirmation');
    await dialog.getByRole('button', { name: 'Undo Changes' }).click();

    const toast = wb.page.locator('.notification-toast', { hasText: /Undid the changes to 1 file/ });
    await toast.waitFor({ timeout: 15_000 });
    assert.match((await toast.textContent()) ?? '', /Skipped: notes\.txt \(it was changed after this turn\)/);
    assert.equal(readFileSync(join(wb.workspace, 'README.md'), 'utf8'), '# Demo\nold line\n');
    assert.equal(readFileSync(join(wb.workspace, 'notes.txt'), 'utf8'), 'my own notes\n');
    assert.ok(existsSync(join(wb.workspace, 'keep.txt')));
    // The revert is a turn of its own in the conversation, showing the file put back.
    await frame.locator('[data-turn-status="completed"]').nth(1).waitFor({ timeout: 15_000 });
    await frame.locator('[data-item-type="fileChange"]').nth(1).getByText('README.md').waitFor();
    await screenshot(wb.page, 'turn-undone');
  });
});
