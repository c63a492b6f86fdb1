// The conversation's honest states in the installed .vsix, each reached as a user reaches it and shot in
// light, dark and high contrast: loading (a restored thread while the server is slow to start), the
// server stopped (one that cannot start) with Restart working once it can, a new thread's workspace and
// example prompts, a failed turn retried with the same input (both turns kept), Edit and resend on the
// last message, and the Threads tree agreeing with the conversation while a thread is open and after an
// undo. The extension runs the built server through a small wrapper that marker files make fail or slow.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { serverBundle } from '../support/paths';
import { tempDir } from '../support/tempDirs';
import { useWorkbench } from '../support/harness/uiFixture';
import {
  activityBarItem,
  runCommand,
  screenshot,
  setColorTheme,
  sideBarIdle,
  themes,
  view,
  type ThemeKind,
} from '../support/harness/workbench';
import { conversation, newThread, send, useScriptedModel } from './conversationPage';
import { EDIT_README } from '../support/patches';

/**
 * Runs the built server; `fail` makes it exit at once with a reason, `slow` holds its start while the
 * marker is there (at most a minute), so the test lets it go once it has seen the waiting state.
 */
const wrapperSource = (bundle: string) => `
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
if (fs.existsSync(path.join(__dirname, 'fail'))) {
  process.stderr.write('error: config.toml: model_provider "nope" is not defined\\n');
  process.exit(2);
}
const held = Date.now();
const start = () => {
  if (fs.existsSync(path.join(__dirname, 'slow')) && Date.now() - held < 60000) return setTimeout(start, 100);
  const child = spawn(process.execPath, [${JSON.stringify(bundle)}, ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 1));
  process.on('SIGTERM', () => child.kill('SIGTERM'));
};
start();
`;

describe('the conversation’s honest states (installed .vsix)', function () {
  this.timeout(180_000);
  const wb = useWorkbench({ 'README.md': '# Demo\nold line\n' });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'workspace-write' });
  let wrapperDir = '';
  const marker = (name: 'fail' | 'slow', on: boolean) => {
    const file = join(wrapperDir, name);
    if (on) writeFileSync(file, '');
    else rmSync(file, { force: true });
  };

  before(() => {
    wrapperDir = tempDir('threadline-wrapper-');
    writeFileSync(join(wrapperDir, 'server.js'), wrapperSource(serverBundle));
    // A machine-scoped setting: in a remote window (code-server) it lives in the machine's settings.
    const machineSettings = join(wb.server.userDataDir, 'Machine', 'settings.json');
    mkdirSync(dirname(machineSettings), { recursive: true });
    writeFileSync(
      machineSettings,
      JSON.stringify({
        'threadline.server.command': process.execPath,
        'threadline.server.args': [join(wrapperDir, 'server.js'), 'app-server'],
      }),
    );
  });
  beforeEach(() => {
    marker('fail', false);
    marker('slow', false);
    model.reset();
  });

  /** The state shot in each theme, ending in the light one the next test expects. */
  async function shots(name: string): Promise<void> {
    for (const kind of ['dark', 'high-contrast', 'light'] as ThemeKind[]) {
      await setColorTheme(wb.page, kind);
      await wb.page.locator(`.monaco-workbench.${themes[kind].workbenchClass}`).waitFor();
      await screenshot(wb.page, `${name}-${kind}`);
    }
  }

  const tree = () => view(wb.page, 'Threads');

  async function openThreadline(): Promise<void> {
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);
  }

  it('shows a skeleton while a restored thread waits for a slow server, then the thread', async () => {
    model.script({ output: [{ text: 'Noted.' }] });
    const frame = await newThread(wb.page);
    await send(frame, 'Remember the skeleton');
    await frame.locator('[data-turn-status="completed"]').waitFor({ timeout: 30_000 });
    for (const kind of ['dark', 'high-contrast', 'light'] as ThemeKind[]) {
      marker('slow', true);
      await setColorTheme(wb.page, kind);
      await runCommand(wb.page, 'Developer: Reload Window');
      await wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
      // The theme may not have been saved before the window went: set again, the server still starting.
      const themed = wb.page.locator(`.monaco-workbench.${themes[kind].workbenchClass}`);
      if ((await themed.count()) === 0) await setColorTheme(wb.page, kind);
      const restored = conversation(wb.page);
      const skeleton = restored.getByRole('status', { name: 'Loading the conversation' });
      // The side bar comes back as it was; if not yet, the view is opened by command (a click on the
      // activity bar icon would close a side bar that was just coming back).
      if (!(await skeleton.isVisible().catch(() => false))) {
        await view(wb.page, 'Conversation')
          .waitFor({ timeout: 10_000 })
          .catch(() => runCommand(wb.page, 'Threadline: Focus Composer'));
      }
      await skeleton.waitFor({ timeout: 30_000 });
      assert.equal(await restored.locator('.tl-start').count(), 0, 'no empty start view before the thread');
      await screenshot(wb.page, `state-loading-${kind}`);
      marker('slow', false);
      await restored.getByText('Noted.').waitFor({ timeout: 60_000 });
      assert.equal(await skeleton.count(), 0, 'the skeleton is gone once the thread is there');
    }
  });

  it('says in the conversation why the server stopped, and Restart brings it back', async () => {
    marker('fail', true);
    await openThreadline();
    const frame = conversation(wb.page);
    const failed = frame.getByRole('alert', { name: "Threadline's server stopped" });
    await failed.waitFor({ timeout: 60_000 });
    assert.match((await failed.textContent()) ?? '', /model_provider "nope" is not defined/);
    assert.equal(await frame.getByRole('textbox', { name: 'Message' }).count(), 0);
    await shots('state-server-failed');
    await failed.getByRole('button', { name: 'Show Log' }).click();
    await wb.page.locator('.part.panel', { hasText: 'is not defined' }).first().waitFor({ timeout: 15_000 });

    marker('fail', false);
    await failed.getByRole('button', { name: 'Restart' }).click();
    await frame.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 60_000 });
    assert.equal(await failed.count(), 0);
    await frame.locator('.tl-intro').waitFor();
  });

  it('names the workspace and offers three example prompts that fill the composer', async () => {
    await openThreadline();
    const frame = conversation(wb.page);
    const intro = frame.locator('.tl-intro');
    await intro.getByText(basename(wb.workspace)).waitFor({ timeout: 30_000 });
    const examples = intro.getByRole('button');
    assert.equal(await examples.count(), 3);
    const second = ((await examples.nth(1).textContent()) ?? '').trim();
    await examples.nth(1).click();
    assert.equal(await frame.getByRole('textbox', { name: 'Message' }).inputValue(), second);
    await shots('state-start');

    // The side bar is open already (a click on its icon would close it): the command opens the thread.
    await runCommand(wb.page, 'Threadline: New Thread');
    const thread = conversation(wb.page);
    await thread.locator('.tl-header').waitFor({ timeout: 30_000 });
    await thread.locator('.tl-intro').getByRole('button').first().waitFor();
    await shots('state-new-thread');
  });

  it('retries a failed turn with the same input as a new turn, keeping the failed one', async () => {
    model.script({ httpError: { status: 400, message: 'The request was rejected upstream' } });
    const frame = await newThread(wb.page);
    await send(frame, 'Summarize the README');
    const error = frame.locator('.tl-turn-error');
    await error.waitFor({ timeout: 30_000 });
    await shots('state-turn-failed');
    model.script({ output: [{ text: 'It says Demo.' }] });
    await error.getByRole('button', { name: 'Retry' }).click();
    await frame.getByText('It says Demo.').waitFor({ timeout: 30_000 });
    // Turns only (the composer also lists the provider's models).
    const turns = model.requests.filter((request) => request.path === '/v1/responses');
    assert.equal(turns.length, 2);
    for (const request of turns)
      assert.match(JSON.stringify(request.body), /Summarize the README/, 'the model got the same input');
    assert.deepEqual(
      await frame
        .locator('[data-turn-status]')
        .evaluateAll((turns) => turns.map((t) => t.getAttribute('data-turn-status'))),
      ['failed', 'completed'],
    );
    assert.equal(await frame.locator('.tl-user', { hasText: 'Summarize the README' }).count(), 2);
    await shots('state-turn-retried');
  });

  it('edits and resends the last message: the old turn is replaced', async () => {
    model.script({ output: [{ text: 'A haiku.' }] }, { output: [{ text: 'A limerick.' }] });
    const frame = await newThread(wb.page);
    await send(frame, 'Write a haiku about tests');
    await frame.getByText('A haiku.').waitFor({ timeout: 30_000 });
    await frame.getByRole('button', { name: 'Edit and resend' }).click();
    const input = frame.getByRole('textbox', { name: 'Message' });
    assert.equal(await input.inputValue(), 'Write a haiku about tests');
    await frame.locator('.tl-editing').waitFor();
    await input.fill('Write a limerick about tests');
    await shots('state-editing');
    await input.press('Enter');
    await frame.getByText('A limerick.').waitFor({ timeout: 30_000 });
    assert.equal(await frame.getByText('A haiku.').count(), 0, 'the old turn is gone');
    assert.equal(await frame.locator('.tl-user', { hasText: 'haiku' }).count(), 0);
    const last = JSON.stringify(model.requests.filter((r) => r.path === '/v1/responses').at(-1)!.body);
    assert.match(last, /limerick/);
    assert.doesNotMatch(last, /haiku/, 'the model no longer reads the old message');
  });

  it('lists the open thread and agrees with the conversation after an undo', async () => {
    const frame = await newThread(wb.page);
    // While the thread is open the tree lists it, never "No threads yet".
    await tree()
      .getByRole('treeitem', { name: /New thread/ })
      .waitFor({ timeout: 5_000 });
    assert.equal(await tree().locator('.welcome-view-content').isVisible(), false);
    model.script(
      {
        output: [
          { toolCall: { name: 'apply_patch', arguments: EDIT_README, callId: 'call_1', custom: true } },
        ],
      },
      { output: [{ text: 'Edited the readme.' }] },
    );
    await send(frame, 'Edit the readme');
    await frame.locator('[data-turn-status="completed"]').first().waitFor({ timeout: 30_000 });
    await frame.getByRole('button', { name: /Undo changes/ }).click();
    await wb.page.locator('.monaco-dialog-box').getByRole('button', { name: 'Undo Changes' }).click();
    await frame.locator('[data-turn-status="completed"]').nth(1).waitFor({ timeout: 15_000 });
    // Both read the same status from the same notification; the tree redraws a moment later.
    await frame.locator('[data-thread-status="idle"]').waitFor({ state: 'attached', timeout: 5_000 });
    const row = tree().getByRole('treeitem', { name: /^Edit the readme/ });
    const startedAt = Date.now();
    for (;;) {
      const label = (await row.getAttribute('aria-label')) ?? '';
      if (!/running|waiting/.test(label)) break;
      assert.ok(Date.now() - startedAt < 2_000, `the tree still says "${label}" 2 s after the conversation`);
      await wb.page.waitForTimeout(50);
    }
    await shots('state-tree-agrees');
  });

  after(() => {
    if (wrapperDir && existsSync(wrapperDir)) rmSync(wrapperDir, { recursive: true, force: true });
  });
});
