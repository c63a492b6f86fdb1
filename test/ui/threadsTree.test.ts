// The Threads tree as a user sees it in the installed .vsix: threads written to the server's home are
// listed by recency, pages load on "Load more…", rename and archive work from the context menu, a new
// thread appears at once, and a killed server comes back with the same tree.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { writeRollout } from '../support/rollouts';
import { useWorkbench } from '../support/harness/uiFixture';
import {
  activityBarItem,
  notification,
  runCommand,
  screenshot,
  setColorTheme,
  sideBarIdle,
  view,
} from '../support/harness/workbench';
import { waitForServerChild } from './serverChild';

const day = 24 * 60 * 60 * 1000;
/**
 * Noon, `daysAgo` days back (noon keeps "today" and "yesterday" clear of midnight). Today's threads
 * (under a day back) are never in the future and never before today's midnight, whatever the hour the
 * suite runs at: seeded 14 minutes back at 00:10, a "today" thread landed in Yesterday.
 */
const noon = (daysAgo: number) => {
  const d = new Date();
  d.setHours(12, 0, 0, 0);
  if (daysAgo >= 1) return d.getTime() - daysAgo * day;
  const startOfToday = new Date().setHours(0, 0, 1, 0);
  return Math.max(startOfToday, Math.min(d.getTime(), Date.now() - 60_000) - daysAgo * day);
};

describe('the Threads tree (installed .vsix)', () => {
  const wb = useWorkbench();

  function seed(daysAgo: number, text: string, options: { name?: string; cwd?: string } = {}): string {
    return writeRollout(wb.home, {
      createdAtMs: noon(daysAgo),
      cwd: options.cwd ?? wb.workspace,
      ...(options.name ? { name: options.name } : {}),
      turns: [{ id: 'turn-1', userText: text, answer: 'Done.' }],
    }).id;
  }

  const tree = () => view(wb.page, 'Threads');
  const rows = () => tree().locator('.monaco-list-row');
  const row = (text: string) => rows().filter({ hasText: text });

  /**
   * Opens the view, which starts the server: each test's workbench has a new extension host, so the
   * server starts here, after the test wrote its rollouts, and lists them.
   */
  async function showThreads(): Promise<void> {
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);
    // The Conversation view takes most of the side bar's height (its initialSize): folded, every row fits.
    const conversationHeader = view(wb.page, 'Conversation').locator('.pane-header');
    if ((await conversationHeader.getAttribute('aria-expanded')) === 'true') await conversationHeader.click();
  }

  /** What a screen reader says for each row: a thread's label and description, a group's name. */
  async function rowTexts(): Promise<string[]> {
    const labels: string[] = [];
    for (const r of await rows().all()) labels.push(((await r.getAttribute('aria-label')) ?? '').trim());
    return labels;
  }

  /** Clicks one of the row's inline action buttons (they show on hover). */
  async function inlineAction(target: Locator, action: string): Promise<void> {
    await target.hover();
    await target.locator(`.actions .action-label[aria-label="${action}"]`).click();
  }

  it('lists this workspace’s threads grouped by recency, names before prompts', async () => {
    seed(0, 'Fix the flaky login test', { name: 'Login test' });
    seed(0.01, 'Explain the build script');
    seed(1, 'Add a dark theme');
    seed(4, 'Profile the startup path');
    seed(30, 'Write the changelog');
    seed(0, 'Somebody else’s project', { cwd: '/elsewhere' });
    await showThreads();
    await row('Write the changelog').waitFor();
    const texts = await rowTexts();
    const labels = texts.map((t) => t.split(',')[0]);
    assert.deepEqual(labels, [
      'Today',
      'Login test',
      'Explain the build script',
      'Yesterday',
      'Add a dark theme',
      'Previous 7 Days',
      'Profile the startup path',
      'Older',
      'Write the changelog',
      'Archived',
    ]);
    assert.match(texts[1]!, /^Login test, (\d+ (min|h) ago|just now)$/, 'a relative time as description');
    await setColorTheme(wb.page, 'light');
    await screenshot(wb.page, 'threads-tree-light');
    await setColorTheme(wb.page, 'dark');
    await screenshot(wb.page, 'threads-tree-dark');
    assert.deepEqual(wb.browser.consoleErrors, []);
  });

  it('pages 50 at a time with "Load more…"', async () => {
    for (let i = 0; i < 55; i++) seed(40 + i / 100, `Old question ${i}`);
    await showThreads();
    await row('Old question 0').first().waitFor();
    // Keys go to the tree itself: clicking a thread would open it in the conversation view, and focus with it.
    const list = tree().locator('.monaco-list').first();
    await list.focus();
    await wb.page.keyboard.press('End');
    await row('Load more…').waitFor();
    assert.equal(await row('Old question 54').count(), 0, 'the 51st thread waits for the next page');
    await row('Load more…').click();
    await row('Old question 50').waitFor({ state: 'attached' });
    await list.focus();
    await wb.page.keyboard.press('End');
    await row('Old question 54').waitFor();
    assert.equal(await row('Load more…').count(), 0, 'no more pages');
  });

  it('renames, archives into Archived and unarchives back, with the row’s buttons', async () => {
    seed(0, 'Keep me around');
    seed(0, 'Rename me please');
    await showThreads();
    await row('Rename me please').waitFor();
    await inlineAction(row('Rename me please'), 'Rename…');
    const input = wb.page.locator('.quick-input-widget input');
    await input.fill('Renamed by hand');
    await input.press('Enter');
    await row('Renamed by hand').waitFor();

    await inlineAction(row('Renamed by hand'), 'Archive');
    await row('Renamed by hand').waitFor({ state: 'detached' });
    await row('Archived').click();
    await row('Renamed by hand').waitFor();
    await screenshot(wb.page, 'threads-tree-archived');

    await inlineAction(row('Renamed by hand'), 'Unarchive');
    const backAbove = async () => {
      const texts = await rowTexts();
      const at = texts.findIndex((t) => t.startsWith('Renamed by hand'));
      return at > 0 && at < texts.indexOf('Archived');
    };
    const end = Date.now() + 5_000;
    while (!(await backAbove())) {
      assert.ok(Date.now() < end, `not back above Archived: ${(await rowTexts()).join(' | ')}`);
      await wb.page.waitForTimeout(50);
    }
  });

  it('finds threads from "Search Threads…" by what was asked', async () => {
    seed(2, 'Migrate the database schema');
    seed(9, 'Tune the garbage collector');
    await showThreads();
    await runCommand(wb.page, 'Threadline: Search Threads…');
    const input = wb.page.locator('.quick-input-widget input');
    const listed = wb.page.locator('.quick-input-list .monaco-list-row');
    await listed.first().waitFor(); // the newest threads of every workspace, before any typing
    await input.fill('garbage');
    await listed.filter({ hasText: 'Tune the garbage collector' }).waitFor();
    await wb.page.waitForTimeout(300); // the debounced server search has answered
    const texts = await listed.allInnerTexts();
    assert.equal(texts.length, 1, texts.join(' | '));
    assert.match(texts[0]!, /^Tune the garbage collector/);
    await screenshot(wb.page, 'threads-search');
    await input.press('Escape');
  });

  it('shows a new thread the moment it starts', async () => {
    seed(3, 'An older thread');
    await showThreads();
    await row('An older thread').waitFor();
    await runCommand(wb.page, 'Threadline: New Thread');
    await row('Today').waitFor();
    await row('New thread').waitFor();
  });

  it('comes back after the server is killed, with the same rows', async () => {
    seed(0, 'Survives a crash');
    seed(2, 'So does this one');
    await showThreads();
    await row('So does this one').waitFor();
    const before = await rowTexts();
    const { pid } = await waitForServerChild(wb.home);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    await waitForServerChild(wb.home, (child) => child.pid !== pid);
    await statusBarReady(wb.page);
    const backMs = Date.now() - killedAt;
    assert.deepEqual(await rowTexts(), before);
    assert.ok(backMs < 2_000, `back after ${backMs} ms`);
  });

  it('tells why the server stopped, with Show Log and Restart, and recovers', async () => {
    seed(0, 'Still here after the outage');
    await showThreads();
    await row('Still here after the outage').waitFor();
    // A machine-scoped setting: in a remote window (code-server) it lives in the machine's settings.
    const machineSettings = join(wb.server.userDataDir, 'Machine', 'settings.json');
    mkdirSync(dirname(machineSettings), { recursive: true });
    writeFileSync(
      machineSettings,
      JSON.stringify({ 'threadline.server.command': '/nonexistent/threadline-server' }),
    );
    const toast = notification(wb.page, "Threadline's server stopped.");
    await toast.waitFor();
    await tree().locator('.welcome-view-content', { hasText: 'stopped after crashing repeatedly' }).waitFor();
    await screenshot(wb.page, 'threads-server-failed');
    await toast.getByRole('button', { name: 'Show Log' }).click();
    await wb.page.locator('.part.panel', { hasText: 'cannot start the Threadline server' }).waitFor();

    writeFileSync(machineSettings, '{}'); // the setting changed: the server starts again
    await row('Still here after the outage').waitFor();
  });
});

async function statusBarReady(page: Page): Promise<void> {
  await page
    .locator('.part.statusbar .statusbar-item', { hasText: 'Threadline' })
    .locator('.codicon-comment-discussion')
    .waitFor({ timeout: 5_000 });
}
