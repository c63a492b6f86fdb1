// Worktree threads in the installed .vsix: "New Thread in Worktree" from the Threads view's menu makes a
// thread whose row shows its branch; "Apply to Workspace" brings its change into the workspace and says
// so; "Discard Worktree…" lists what would be lost before removing the worktree, and the row loses
// its branch. Then two worktree threads run turns at once against the scripted model (the question of
// the one not in view names it), each row counts its changed files, "Review All Changes" opens one in
// the multi-file diff editor, and applying it changes the workspace file and the row's count.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { git } from '../support/git';
import { useWorkbench } from '../support/harness/uiFixture';
import {
  activityBarItem,
  notification,
  runCommand,
  screenshot,
  sideBarIdle,
  view,
} from '../support/harness/workbench';
import { patchCall } from '../support/patches';
import { conversation, send, useScriptedModel } from './conversationPage';

describe('threads in git worktrees (installed .vsix)', () => {
  const wb = useWorkbench({ 'README.md': '# Demo\nold line\n' });
  const rows = () => view(wb.page, 'Threads').locator('.monaco-list-row');
  const branchRow = () => rows().filter({ hasText: /main-[0-9a-f]{8}/ });

  it('starts a thread in a worktree, applies it to the workspace, and discards it', async () => {
    git(wb.workspace, 'init', '-q', '-b', 'main');
    git(wb.workspace, 'add', '.');
    git(wb.workspace, 'commit', '-q', '-m', 'First');
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);

    await runCommand(wb.page, 'Threadline: New Thread in Worktree');
    await branchRow().waitFor({ timeout: 30_000 });
    // The row says the branch without its prefix.
    const branch = `threadline/${/main-[0-9a-f]{8}/.exec((await branchRow().getAttribute('aria-label')) ?? '')![0]}`;
    // The new thread opens on its branch's name, not its folder's (the thread id).
    await conversation(wb.page)
      .locator('.tl-intro', { hasText: `In ${branch}, a worktree of its own.` })
      .waitFor({ timeout: 30_000 });
    const worktree = join(wb.home, 'worktrees');
    assert.equal(git(wb.workspace, 'branch', '--list', '--format=%(refname:short)', branch), branch);
    const path = git(wb.workspace, 'worktree', 'list', '--porcelain')
      .split('\n')
      .find((line) => line.startsWith('worktree ') && line.includes(worktree))!
      .slice('worktree '.length);
    writeFileSync(join(path, 'README.md'), '# Demo\nfrom the worktree\n');
    await screenshot(wb.page, 'worktree-thread-row');

    await branchRow().hover();
    await branchRow().locator('.actions .action-label[aria-label="Apply to Workspace"]').click();
    await notification(
      wb.page,
      new RegExp(`1 file\\(s\\) from ${branch} merged \\(fast-forward\\)`),
    ).waitFor();
    assert.equal(readFileSync(join(wb.workspace, 'README.md'), 'utf8'), '# Demo\nfrom the worktree\n');
    await screenshot(wb.page, 'worktree-applied');

    writeFileSync(join(path, 'draft.txt'), 'not applied yet\n');
    await branchRow().click({ button: 'right' });
    // The menu takes keys (a click on its item does not reach it in code-server's browser).
    const item = wb.page.getByRole('menuitem', { name: /Discard Worktree/ });
    await item.waitFor();
    // The menu marks the focused entry on the item around the menuitem.
    const focused = () => item.evaluate((e) => !!e.closest('.action-item')?.classList.contains('focused'));
    for (let i = 0; i < 12 && !(await focused()); i++) {
      await wb.page.keyboard.press('ArrowDown');
    }
    await wb.page.keyboard.press('Enter');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15_000 });
    await dialog.getByText(/draft\.txt \(uncommitted\)/).waitFor();
    await screenshot(wb.page, 'worktree-discard-confirmation');
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await notification(wb.page, new RegExp(`Removed .* and the branch ${branch}`)).waitFor();
    assert.ok(!existsSync(path));
    // The thread stays in the tree, without its branch.
    await branchRow().waitFor({ state: 'detached' });
    await rows().filter({ hasText: 'New thread' }).waitFor();
    assert.equal(git(wb.workspace, 'branch', '--list', '--format=%(refname:short)', branch), '');
    assert.deepEqual(wb.browser.consoleErrors, []);
  });

  it('asks what becomes of the worktree when its thread is archived', async () => {
    git(wb.workspace, 'init', '-q', '-b', 'main');
    git(wb.workspace, 'add', '.');
    git(wb.workspace, 'commit', '-q', '-m', 'First');
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);
    await runCommand(wb.page, 'Threadline: New Thread in Worktree');
    await branchRow().waitFor({ timeout: 30_000 });
    await branchRow().hover();
    await branchRow().locator('.actions .action-label[aria-label="Archive…"]').click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.getByText(/Keep or discard its worktree/).waitFor({ timeout: 15_000 });
    await screenshot(wb.page, 'worktree-archive-asks');
    await dialog.getByRole('button', { name: 'Keep Worktree' }).click();
    await branchRow().waitFor({ state: 'detached' });
    await rows().filter({ hasText: 'Archived' }).click();
    await rows().filter({ hasText: 'New thread' }).waitFor();
    const kept = git(wb.workspace, 'branch', '--list', '--format=%(refname:short)', 'threadline/*');
    assert.match(kept, /^threadline\/main-[0-9a-f]{8}$/, 'the worktree and its branch are kept');
  });
});

describe('two worktree threads at once (installed .vsix)', function () {
  this.timeout(180_000);
  const wb = useWorkbench({ 'README.md': '# Demo\nold line\n', 'notes.txt': 'first\n' });
  const model = useModelServer();
  // Every file change is asked about: the question of the thread not in view names it.
  useScriptedModel(wb, () => model.baseUrl, { approval: 'untrusted', sandbox: 'workspace-write' });
  const rows = () => view(wb.page, 'Threads').locator('.monaco-list-row');
  const row = (text: string) => rows().filter({ hasText: text });
  const edit = (file: string, from: string, to: string) =>
    patchCall(
      ['*** Begin Patch', `*** Update File: ${file}`, '@@', `-${from}`, `+${to}`, '*** End Patch'].join('\n'),
    );

  async function startAndSend(prompt: string) {
    await runCommand(wb.page, 'Threadline: New Thread in Worktree');
    const frame = conversation(wb.page);
    // The new thread's own view (its header names no earlier prompt), not the one it replaces.
    await frame.locator('.tl-header').waitFor({ timeout: 30_000 });
    await frame.locator('.tl-row[data-item-type="userMessage"]').waitFor({ state: 'detached' });
    await send(frame, prompt);
  }

  it('runs both, counts their changes, reviews one and applies it', async () => {
    git(wb.workspace, 'init', '-q', '-b', 'main');
    git(wb.workspace, 'add', '.');
    git(wb.workspace, 'commit', '-q', '-m', 'First');
    // The first thread's model call answers late, so the second thread's turn runs meanwhile.
    model.script(
      { ...edit('README.md', 'old line', 'from the readme thread'), delayMs: 8_000 },
      edit('notes.txt', 'first', 'from the notes thread'),
      { output: [{ text: 'Done.' }] },
      { output: [{ text: 'Done.' }] },
    );
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);
    await startAndSend('Change the readme');
    await startAndSend('Change the notes');
    // The thread in view asks on its card; the other one's question names it, in a notification and
    // on the answer bar of its proposed change.
    await conversation(wb.page)
      .locator('.tl-prompt [role=toolbar] button', { hasText: /^Accept$/ })
      .click({ timeout: 30_000 });
    // The worktree's file is named relative to the thread's folder, as a workspace file would be.
    const asked = notification(wb.page, /Threadline in “Change the readme” wants to change README\.md/);
    await asked.waitFor({ timeout: 30_000 });
    await wb.page.locator('.tab', { hasText: 'Threadline: proposed edit — README.md' }).waitFor();
    await wb.page
      .locator('.review-widget', { hasText: 'Threadline proposes this change in “Change the readme”' })
      .waitFor({ timeout: 30_000 });
    await screenshot(wb.page, 'worktree-approval-names-thread');
    await asked.getByRole('button', { name: 'Accept', exact: true }).click();
    await row('Change the readme').filter({ hasText: '1 changed' }).waitFor({ timeout: 60_000 });
    await row('Change the notes').filter({ hasText: '1 changed' }).waitFor({ timeout: 60_000 });
    assert.equal(readFileSync(join(wb.workspace, 'README.md'), 'utf8'), '# Demo\nold line\n');
    assert.equal(git(wb.workspace, 'status', '--porcelain'), '', 'the workspace is untouched');

    const readme = row('Change the readme');
    await readme.hover();
    await readme.locator('.actions .action-label[aria-label="Review All Changes"]').click();
    const review = wb.page.locator('.tab', { hasText: /Changes in threadline\/main-/ });
    await review.waitFor({ timeout: 30_000 });
    const editor = wb.page.locator('.editor-group-container.active');
    await editor
      .locator('.view-line', { hasText: 'from the readme thread' })
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(await editor.locator('.view-line', { hasText: 'from the notes thread' }).count(), 0);
    await screenshot(wb.page, 'worktree-review');

    await readme.hover();
    await readme.locator('.actions .action-label[aria-label="Apply to Workspace"]').click();
    await notification(wb.page, /1 file\(s\) from threadline\/main-\w+ merged \(fast-forward\)/).waitFor();
    assert.equal(readFileSync(join(wb.workspace, 'README.md'), 'utf8'), '# Demo\nfrom the readme thread\n');
    assert.equal(readFileSync(join(wb.workspace, 'notes.txt'), 'utf8'), 'first\n');
    // The tree updates: the applied thread has nothing left to bring, the other still has its file.
    await row('Change the readme').filter({ hasText: '0 changed' }).waitFor({ timeout: 30_000 });
    await row('Change the notes').filter({ hasText: '1 changed' }).waitFor();
    await screenshot(wb.page, 'worktree-applied-one');
  });
});
