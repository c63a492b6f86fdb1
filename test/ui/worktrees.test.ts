// Worktree threads in the installed .vsix: "New Thread in Worktree" from the Threads view's menu makes a
// thread whose row shows its branch; "Apply to Workspace" brings its change into the workspace and says
// so; "Discard Worktree…" lists what would be lost before removing the worktree, and the row loses
// its branch. The thread's work is written straight into its worktree (the server tests drive turns).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
