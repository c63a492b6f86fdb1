// The usage view in the installed .vsix, as a user: a turn against the scripted model, then
// "Threadline: Show Usage" shows its tokens per model, day and thread with the cost estimated from
// config.toml's price table; a second turn updates the open view; /status tells today's total; Edit
// prices opens config.toml; the tab survives Reload Window.
import * as assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { useModelServer } from '../fixtures/modelServer/server';
import { useWorkbench } from '../support/harness/uiFixture';
import { runCommand, screenshot, setColorTheme } from '../support/harness/workbench';
import { conversation, newThread, send, useScriptedModel } from './conversationPage';

/** The cells of the table row whose text matches, as the user reads them. */
async function rowCells(frame: FrameLocator, table: string, row: RegExp): Promise<string[]> {
  const located = frame.getByRole('table', { name: table }).getByRole('row').filter({ hasText: row });
  await located.first().waitFor({ timeout: 30_000 });
  return (await located.first().getByRole('cell').allTextContents()).map((text) => text.trim());
}

describe('the usage view (installed .vsix)', function () {
  this.timeout(180_000);
  const wb = useWorkbench({ 'README.md': '# Demo\n' });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'workspace-write' });
  before(() =>
    appendFileSync(
      join(wb.serverHome, 'config.toml'),
      '\n[usage.prices."test-model"]\ninput = 2.0\ncached_input = 0.5\noutput = 10.0\n',
    ),
  );

  it('shows a turn’s tokens and estimated cost per model, day and thread, and follows the next turn', async () => {
    model.script({ output: [{ text: 'Counted them.' }], usage: { input: 1200, output: 300, cached: 200 } });
    const frame = await newThread(wb.page);
    await send(frame, 'Count my tokens');
    await frame.getByText('Counted them.').waitFor({ timeout: 30_000 });

    await runCommand(wb.page, 'Threadline: Show Usage');
    const usage = conversation(wb.page, 'panel');
    // (1200 − 200) × $2 + 200 × $0.5 + 300 × $10 per million tokens = $0.0051.
    assert.deepEqual(await rowCells(usage, 'Usage by model', /test-model/), [
      'test-model',
      '1,200',
      '200',
      '300',
      '1,500',
      '$0.0051',
    ]);
    const [day] = await rowCells(usage, 'Usage by day', /\d{4}-\d\d-\d\d/);
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    assert.equal(day, `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`);
    const thread = await rowCells(usage, 'Usage by thread', /Count my tokens/);
    assert.equal(thread[0], 'Count my tokens');
    assert.deepEqual(thread.slice(2), ['1,500', '$0.0051']);
    const today = usage.getByLabel('Today', { exact: true });
    assert.match((await today.textContent())!, /Today\s*1,500\s*\$0\.0051/);
    await screenshot(wb.page, 'usage-view');
    await setColorTheme(wb.page, 'dark');
    await screenshot(wb.page, 'usage-view-dark');

    // A second turn while the view is open: it reads usage again when the turn ends.
    model.script({ output: [{ text: 'Counted again.' }], usage: { input: 100, output: 20 } });
    await send(frame, 'Once more');
    await frame.getByText('Counted again.').waitFor({ timeout: 30_000 });
    assert.deepEqual(await rowCells(usage, 'Usage by model', /test-model/), [
      'test-model',
      '1,300',
      '200',
      '320',
      '1,620',
      // + 100 × $2 + 20 × $10 = $0.0004 more.
      '$0.0055',
    ]);
    assert.match((await today.textContent())!, /1,620/);

    // /status in the composer tells today's usage too.
    const input = frame.getByRole('textbox', { name: 'Message' });
    await input.pressSequentially('/status');
    await input.press('Enter');
    const status = frame.getByRole('status', { name: 'Status' });
    await status.getByText('1,620 tokens in all threads, $0.0055 estimated').waitFor({ timeout: 15_000 });
    await screenshot(wb.page, 'usage-status');

    // "Edit prices…" opens the config.toml the prices are read from.
    await usage.locator('vscode-button', { hasText: 'Edit prices…' }).click();
    await wb.page.locator('.tabs-container .tab', { hasText: 'config.toml' }).waitFor({ timeout: 15_000 });
    await wb.page
      .locator('.monaco-editor .view-lines', { hasText: 'usage.prices' })
      .waitFor({ timeout: 15_000 });
    assert.deepEqual(wb.browser.consoleErrors, []);

    // The usage tab comes back after Reload Window, with the numbers read again.
    await runCommand(wb.page, 'Developer: Reload Window');
    await wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    await wb.page.locator('.tabs-container .tab', { hasText: 'Threadline Usage' }).click({ timeout: 30_000 });
    const restored = conversation(wb.page, 'panel');
    assert.equal((await rowCells(restored, 'Usage by model', /test-model/))[4], '1,620');
    await screenshot(wb.page, 'usage-view-after-reload');
  });
});
