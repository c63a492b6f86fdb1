// The conversation view while things happen, in the installed .vsix: a command's output streaming in
// while it runs, "Jump to latest" while an answer streams, the scroll position across hide/show, an
// image pasted into the composer reaching the model, a link in the answer opened by the editor, the
// server killed in the middle of a turn, the compact composer in a narrow side bar in each theme, and a
// hook that blocked a command.
import * as assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { useModelServer } from '../fixtures/modelServer/server';
import { execCall } from '../support/commands';
import { hookToml } from '../support/hooks';
import { useWorkbench } from '../support/harness/uiFixture';
import {
  activityBarItem,
  screenshot,
  setColorTheme,
  sideBarIdle,
  type ThemeKind,
} from '../support/harness/workbench';
import { conversation, newThread, send, useScriptedModel } from './conversationPage';
import { waitForServerChild } from './serverChild';

/** A 1×1 PNG. */
const png =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** How far the list is from its end, in pixels. */
const gapToEnd = (frame: FrameLocator) =>
  frame.locator('.tl-list').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

/** The text of the first row the list shows at its top (item ids may differ once read back). */
const topRow = (frame: FrameLocator) =>
  frame.locator('.tl-list').evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    const rows = [...el.querySelectorAll<HTMLElement>('[data-row-key]')];
    // The row itself, not its text: a turn's token count is not part of a rebuilt view's snapshot.
    return rows.find((row) => row.getBoundingClientRect().bottom > top + 1)?.dataset.rowKey;
  });

const paragraphs = (count: number, word: string) =>
  Array.from({ length: count }, (_, i) => `${word} paragraph ${i + 1} of the answer.\n\n`);

describe('the conversation view while a turn runs (installed .vsix)', function () {
  this.timeout(150_000);
  const wb = useWorkbench({ 'README.md': '# Demo\n\nThe readme.\n' });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'workspace-write' });

  it('streams a command’s output while it runs, then shows its tail, exit code and all lines', async () => {
    const cmd = 'for i in $(seq 1 20); do echo line $i; sleep 0.25; done; exit 3';
    model.script({
      output: [
        {
          toolCall: {
            name: 'exec_command',
            arguments: JSON.stringify({ cmd, yield_time_ms: 30_000 }),
            callId: 'call_cmd',
          },
        },
      ],
    });
    model.script({ output: [{ text: 'The loop ended with exit code 3.' }] });
    const frame = await newThread(wb.page);
    await send(frame, 'Run the loop');

    const command = frame.locator('[data-item-type="commandExecution"]');
    const output = command.getByRole('log', { name: 'Command output' });
    await output.getByText('line 2', { exact: false }).waitFor({ timeout: 30_000 });
    // Seen while the command still runs: the output arrives as it is printed, not at the end.
    assert.equal(await command.locator('.tl-status-inProgress').count(), 1, 'still running');
    assert.doesNotMatch((await output.textContent()) ?? '', /line 20/);

    await command.locator('.tl-status-completed, .tl-status-failed').waitFor({ timeout: 30_000 });
    assert.equal(await command.locator('.tl-error-text').textContent(), 'exit 3');
    const tail = (await output.locator('pre').textContent()) ?? '';
    assert.match(tail, /line 9\n[\s\S]*line 20/, 'the last 12 lines');
    assert.doesNotMatch(tail, /line 8\n/);
    await output.getByRole('button', { name: 'Show all 20 lines' }).click();
    assert.match((await output.locator('pre').textContent()) ?? '', /^line 1\nline 2\n/);
    await frame.getByText('The loop ended with exit code 3.').waitFor({ timeout: 30_000 });
    for (const kind of ['high-contrast', 'dark', 'light'] as ThemeKind[]) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `conversation-command-${kind}`);
    }
  });

  it('offers "Jump to latest" when scrolled up while an answer streams, and follows again after it', async () => {
    model.script({ output: [{ text: paragraphs(60, 'Streaming') }], eventDelayMs: 100 });
    const frame = await newThread(wb.page);
    await send(frame, 'Write a long answer');
    const list = frame.locator('.tl-list');
    await frame.getByText('Streaming paragraph 12 ').waitFor({ timeout: 30_000 });
    assert.ok((await gapToEnd(frame)) <= 40, 'following the answer');

    await list.hover();
    await wb.page.mouse.wheel(0, -300);
    const jump = frame.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor({ timeout: 5_000 });
    // Scrolled up, the view stays where the user put it while the answer grows below.
    const before = await list.evaluate((el) => el.scrollTop);
    await wb.page.waitForTimeout(600);
    assert.ok(
      !(await frame.getByText('Streaming paragraph 60 ').count()),
      'the answer was still streaming (the test needs it to)',
    );
    assert.equal(await list.evaluate((el) => el.scrollTop), before);
    assert.ok((await gapToEnd(frame)) > 100);

    await jump.click();
    await jump.waitFor({ state: 'hidden' });
    await frame.getByText('Streaming paragraph 60 ').waitFor({ timeout: 30_000 });
    await wb.page.waitForTimeout(300);
    assert.ok((await gapToEnd(frame)) <= 40, 'back at the end and following it');
  });

  it('keeps the scroll position when the view is hidden and shown again', async () => {
    const frame = await newThread(wb.page);
    for (const word of ['First', 'Second', 'Third']) {
      model.script({ output: [{ text: paragraphs(6, word).join('') }] });
      await send(frame, `${word} question`);
      await frame.getByText(`${word} paragraph 6 `).waitFor({ timeout: 30_000 });
      // Sent while the turn runs, the next prompt would steer it: wait until the composer says Message.
      await frame.getByRole('textbox', { name: 'Message' }).waitFor();
    }
    await frame.locator('.tl-list').hover();
    for (let i = 0; i < 2; i++) await wb.page.mouse.wheel(0, -120);
    await frame.getByRole('button', { name: 'Jump to latest' }).waitFor();
    await wb.page.waitForTimeout(300);
    const shown = await topRow(frame);
    assert.ok(shown, 'a row at the top');

    // Another view container hides the Conversation view (its page is discarded); back, it is rebuilt.
    await activityBarItem(wb.page, 'Explorer').click();
    await frame.locator('.tl-list').waitFor({ state: 'detached', timeout: 15_000 });
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);
    const shownAgain = conversation(wb.page, 'only');
    await shownAgain.locator('.tl-list').waitFor({ timeout: 30_000 });
    await wb.page.waitForTimeout(500);
    assert.equal(await topRow(shownAgain), shown);
    assert.ok(await shownAgain.getByRole('button', { name: 'Jump to latest' }).isVisible(), 'not at the end');
  });

  it('sends an image pasted into the composer to the model as a local image', async () => {
    model.script({ output: [{ text: 'A single pixel.' }] });
    const frame = await newThread(wb.page);
    const input = frame.getByRole('textbox', { name: 'Message' });
    await input.evaluate((el, data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const clipboard = new DataTransfer();
      clipboard.items.add(new File([bytes], 'pixel.png', { type: 'image/png' }));
      el.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }),
      );
    }, png);
    await frame.locator('.tl-chip').waitFor({ timeout: 15_000 });
    await send(frame, 'What is in this image?');
    await frame.getByText('A single pixel.').waitFor({ timeout: 30_000 });
    const body = JSON.stringify(model.requests.at(-1)?.body);
    assert.match(body, /"type":"input_image"/);
    assert.match(body, /data:image\/png;base64,/);
    assert.match(body, /What is in this image\?/);
  });

  it('opens a link in the answer through the editor, not in the view', async () => {
    model.script({ output: [{ text: 'See [the readme](README.md) for more.' }] });
    const frame = await newThread(wb.page);
    await send(frame, 'Where are the docs?');
    const link = frame.getByRole('link', { name: 'the readme' });
    await link.click();
    await wb.page.locator('.tab', { hasText: 'README.md' }).waitFor({ timeout: 15_000 });
    await wb.page.locator('.monaco-editor').getByText('The readme.').waitFor();
    // The view still shows the conversation: the click did not navigate its page.
    await frame.getByText('for more.').waitFor();
    assert.deepEqual(wb.browser.consoleErrors, []);
  });

  it('recovers when the server dies mid-turn: the turn shows as interrupted and the thread goes on', async () => {
    model.script({ output: [{ text: ['Working ', 'on ', 'it', ' slowly'] }], stallAfterEvents: 6 });
    const frame = await newThread(wb.page);
    await send(frame, 'Start something long');
    await frame.getByText('Working on').waitFor({ timeout: 30_000 });
    await frame.getByRole('button', { name: 'Stop' }).waitFor();

    const child = await waitForServerChild(wb.home);
    process.kill(child.pid, 'SIGKILL');
    await waitForServerChild(wb.home, ({ pid }) => pid !== child.pid, 30_000);
    await frame.locator('[data-turn-status="interrupted"]').waitFor({ timeout: 30_000 });
    await frame.getByRole('button', { name: 'Stop' }).waitFor({ state: 'hidden' });
    await frame.locator('.tl-user-text', { hasText: 'Start something long' }).waitFor();
    await screenshot(wb.page, 'conversation-after-server-crash');

    model.script({ output: [{ text: 'Back again.' }] });
    await send(frame, 'Are you there?');
    await frame.getByText('Back again.').waitFor({ timeout: 30_000 });
  });

  it('keeps the composer to one row in a narrow side bar, in every theme', async () => {
    const frame = await newThread(wb.page);
    // Narrower than the default: drag the side bar's edge left.
    const sidebar = await wb.page.locator('.part.sidebar').boundingBox();
    assert.ok(sidebar);
    const edge = sidebar.x + sidebar.width;
    await wb.page.mouse.move(edge + 1, sidebar.y + 200);
    await wb.page.mouse.down();
    await wb.page.mouse.move(edge - 80, sidebar.y + 200, { steps: 5 });
    await wb.page.mouse.up();
    await frame.getByRole('textbox', { name: 'Message' }).fill('A draft\nover three\nlines');

    const bar = frame.locator('.tl-composer-bar');
    const sendButton = frame.getByRole('button', { name: 'Send' });
    const picker = frame.locator('vscode-single-select[aria-label="Model"]');
    const [barBox, sendBox, modelBox] = await Promise.all(
      [bar, sendButton, picker].map((l) => l.boundingBox()),
    );
    assert.ok(barBox && sendBox && modelBox);
    assert.ok(barBox.height < 36, `one row (${barBox.height}px)`);
    assert.ok(Math.abs(sendBox.y - modelBox.y) < 12, 'Send and the model picker on the same row');

    // Below a width the toolbar moves the last controls into its overflow menu (composerToolbar.test).
    const more = frame.getByRole('button', { name: 'More options' });
    if (await more.isVisible()) await more.click();
    await frame.getByRole('button', { name: 'Approvals and sandbox' }).click();
    await frame.getByRole('group', { name: 'Approvals and sandbox' }).waitFor();
    for (const kind of ['light', 'dark', 'high-contrast'] as ThemeKind[]) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `composer-narrow-${kind}`);
    }
  });
  it('shows a hook that blocked a command, with what it said, in the turn', async () => {
    const config = join(wb.serverHome, 'config.toml');
    const before = readFileSync(config, 'utf8');
    const reason = 'No rm here: ask the user first.';
    appendFileSync(config, hookToml('PreToolUse', `echo '${reason}' >&2; exit 2`, { matcher: 'Bash' }));
    try {
      model.script(...execCall({ cmd: 'rm -rf build' }, 'The hook stopped me.'));
      const frame = await newThread(wb.page);
      await send(frame, 'Clean the build');
      const hook = frame.locator('.tl-hook');
      await hook.filter({ hasText: 'blocked' }).waitFor({ timeout: 30_000 });
      await frame.getByText('The hook stopped me.').waitFor({ timeout: 30_000 });
      assert.match(await hook.innerText(), /PreToolUse hook\s+config\.toml/);
      assert.equal((await hook.locator('.tl-hook-entry').innerText()).trim(), reason);
      assert.equal(await frame.locator('.tl-command').count(), 0, 'the command never ran');
      await screenshot(wb.page, 'hook-blocked');
    } finally {
      writeFileSync(config, before);
    }
  });
});
