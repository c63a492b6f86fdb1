// The installed .vsix as a user meets it: the activity-bar icon, the Threads view's welcome content, and the
// About command from the command palette (its toast shows the version the server child process reported).
import * as assert from 'node:assert/strict';
import { packageJson } from '../support/paths';
import { useWorkbench } from '../support/harness/uiFixture';
import {
  activityBarItem,
  notification,
  runCommand,
  screenshot,
  setColorTheme,
  sideBarIdle,
  themes,
  view,
  type ThemeKind,
} from '../support/harness/workbench';

describe('Threadline in the workbench (installed .vsix)', () => {
  const wb = useWorkbench();

  async function openThreadline(): Promise<void> {
    await activityBarItem(wb.page, 'Threadline').click();
    await view(wb.page, 'Threads').locator('.welcome-view-content').waitFor();
    await sideBarIdle(wb.page);
  }

  it('shows its view container in the activity bar, with the Threads welcome content', async () => {
    await openThreadline();
    const threads = view(wb.page, 'Threads');
    // "Reading the threads…" until the first listing is in, then this.
    await threads.locator('.welcome-view-content', { hasText: /No threads yet\./ }).waitFor();
    assert.equal(await threads.getByRole('button', { name: 'About Threadline' }).isVisible(), true);
    await screenshot(wb.page, 'threads-welcome');
    assert.deepEqual(wb.browser.consoleErrors, []);
  });

  it('answers "Threadline: About" from the command palette with the server version', async () => {
    await runCommand(wb.page, 'Threadline: About');
    const version = packageJson.version;
    const toast = notification(wb.page, `Threadline ${version}, app-server ${version}`);
    await toast.waitFor();
    await screenshot(wb.page, 'about-notification');
  });

  for (const kind of Object.keys(themes) as ThemeKind[]) {
    it(`renders the Threads view in the ${kind} theme`, async () => {
      await setColorTheme(wb.page, kind);
      await openThreadline();
      await screenshot(wb.page, `threads-${kind}`);
    });
  }
});
