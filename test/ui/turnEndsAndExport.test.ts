// Leaving a thread and coming back to it, in the installed .vsix, driven as a user: a turn that ends
// while an editor tab has the focus (the conversation hidden) raises a notification, marks the thread
// and the status bar, and the notification's Open Thread brings it back; Show in Terminal mirrors a
// running command's coloured output live; a thread with a command and a patch exported (Markdown and
// rollout) and imported again comes back as a new thread with the same turns.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { useModelServer } from '../fixtures/modelServer/server';
import { useWorkbench } from '../support/harness/uiFixture';
import { activityBarItem, notification, runCommand, screenshot, view } from '../support/harness/workbench';
import { conversation, newThread, send, useScriptedModel } from './conversationPage';
import { EDIT_README } from '../support/patches';

const execCall = (cmd: string, callId: string) => ({
  toolCall: { name: 'exec_command', arguments: JSON.stringify({ cmd, yield_time_ms: 30_000 }), callId },
});

/** Types a path into the editor's own file dialog (the simple dialog of a browser workbench) and accepts it. */
async function answerFileDialog(page: Page, path: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 15_000 });
  // The dialog fills in its folder once it has listed it, which would overwrite a path typed before.
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 15_000 });
  for (let attempt = 0; attempt < 5 && (await input.inputValue()) !== path; attempt++) {
    await input.fill(path);
    await page.waitForTimeout(500); // the dialog validates (and may complete) the path as it is typed
  }
  assert.equal(await input.inputValue(), path);
  await input.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15_000 });
}

/** The rollout files of the extension's server. */
function rollouts(home: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.jsonl')) found.push(join(dir, entry.name));
    }
  };
  if (existsSync(join(home, 'sessions'))) walk(join(home, 'sessions'));
  return found;
}

describe('turn alerts, commands in a terminal, export and import (installed .vsix)', function () {
  this.timeout(150_000);
  const wb = useWorkbench({ 'README.md': '# Demo\nold line\n' });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'workspace-write' });
  before(() =>
    wb.server.addUserSettings({
      'threadline.notifications': 'always',
      // xterm draws with the DOM then, so the test can read the terminal's text and colours.
      'terminal.integrated.gpuAcceleration': 'off',
    }),
  );

  it('notifies of a turn that ended while an editor tab had the focus; Open Thread brings it back', async () => {
    model.script({ output: [{ text: 'All done while you were away.' }], delayMs: 6_000 });
    const frame = await newThread(wb.page);
    await send(frame, 'Take your time');
    // Sent (the composer checks the provider first): the turn runs on the server from here on.
    await frame.locator('[data-turn-status="inProgress"]').waitFor({ timeout: 15_000 });
    // The user goes on with something else: the Explorer, a file in the editor, which takes the focus.
    await activityBarItem(wb.page, 'Explorer').click();
    await wb.page.locator('.part.sidebar .monaco-list-row', { hasText: 'README.md' }).click();
    await wb.page.locator('.tab.active', { hasText: 'README.md' }).waitFor();
    await wb.page.locator('.monaco-editor .view-line', { hasText: 'old line' }).click();

    const toast = notification(wb.page, /Take your time.*the turn is done/);
    await toast.waitFor({ timeout: 30_000 });
    const status = wb.page.locator('.part.statusbar .statusbar-item', {
      hasText: 'Threadline: turn done in Take your time',
    });
    await status.waitFor({ timeout: 5_000 });
    const badge = activityBarItem(wb.page, 'Threadline').locator('.badge');
    await badge.waitFor({ timeout: 5_000 });
    assert.equal((await badge.textContent())?.trim(), '1');
    await screenshot(wb.page, 'turn-done-notification');

    await toast.getByRole('button', { name: 'Open Thread' }).click();
    // A view shown again after it was hidden has no `purpose` in its frame's URL: the only page.
    await conversation(wb.page, 'only')
      .getByText('All done while you were away.')
      .waitFor({ timeout: 15_000 });
    // Seen now: the status bar and the badge let go of it.
    await status.waitFor({ state: 'hidden', timeout: 10_000 });
    await badge.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.deepEqual(wb.browser.consoleErrors, []);
  });

  it('mirrors a running command in a terminal, live and in colour', async () => {
    // The command prints three red lines, then waits for a file the test creates once the terminal is
    // open, then prints more: what comes after that can only have reached the terminal live.
    const cmd = [
      "for i in 1 2 3; do printf '\\033[31mred %s\\033[0m plain\\n' $i; done",
      'while [ ! -e go ]; do sleep 0.2; done',
      "printf '\\033[32mafter go\\033[0m\\n'",
    ].join('; ');
    model.script({ output: [execCall(cmd, 'call_loop')] }, { output: [{ text: 'The loop ran.' }] });
    const frame = await newThread(wb.page);
    await send(frame, 'Run the loop');
    const command = frame.locator('[data-item-type="commandExecution"]');
    await command
      .getByRole('log', { name: 'Command output' })
      .getByText('red 3')
      .waitFor({ timeout: 30_000 });
    await command.getByRole('button', { name: /Show in Terminal/ }).click();

    const panel = wb.page.locator('.part.panel');
    await panel.getByText('Threadline: for i in', { exact: false }).first().waitFor({ timeout: 15_000 });
    const terminal = panel.locator('.xterm-rows').first();
    // The output so far, in red: xterm's DOM renderer gives the coloured span its palette class.
    await terminal.locator('span.xterm-fg-1', { hasText: 'red 2' }).waitFor({ timeout: 15_000 });
    assert.equal(await command.locator('.tl-status-inProgress').count(), 1, 'still running when mirrored');
    writeFileSync(join(wb.workspace, 'go'), '');
    await terminal.locator('span.xterm-fg-2', { hasText: 'after go' }).waitFor({ timeout: 20_000 });
    await terminal.getByText('[exit 0]').waitFor({ timeout: 20_000 });
    // Each line once, in order, after the command line (which may take several rows).
    const rows = await terminal.locator(':scope > div').allTextContents();
    const first = rows.findIndex((row) => row.trim() === 'red 1 plain');
    assert.deepEqual(
      rows.slice(first, first + 5).map((row) => row.trim()),
      ['red 1 plain', 'red 2 plain', 'red 3 plain', 'after go', '[exit 0]'],
      rows.join('\n'),
    );
    await screenshot(wb.page, 'command-in-terminal');
  });

  it('runs a command of the user in a terminal that sends typed lines to its input', async () => {
    await runCommand(wb.page, 'Threadline: Run Command in Terminal…');
    const input = wb.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill('read name; printf "\\033[32mhello %s\\033[0m\\n" "$name"; cat');
    await input.press('Enter');
    const panel = wb.page.locator('.part.panel');
    const terminal = panel.locator('.xterm-rows').first();
    // The terminal starts with the command line as typed.
    await terminal.getByText('$ read name;', { exact: false }).waitFor({ timeout: 15_000 });
    await panel.locator('.xterm').first().click();
    await wb.page.keyboard.type('world');
    await wb.page.keyboard.press('Enter');
    const greeting = terminal.locator('span.xterm-fg-2', { hasText: 'hello world' });
    await greeting.waitFor({ timeout: 15_000 });
    // cat echoes what it reads until Ctrl+D ends its input; then the process exits.
    await wb.page.keyboard.type('again');
    await wb.page.keyboard.press('Enter');
    await wb.page.keyboard.press('Control+D');
    await terminal.getByText('[exit 0]').waitFor({ timeout: 15_000 });
    const text = (await terminal.textContent()) ?? '';
    assert.equal(text.split('again').length - 1, 2, `typed once, echoed once by cat: ${text}`);
    await screenshot(wb.page, 'command-exec-terminal');
  });

  it('exports a thread with a command and a patch as Markdown and as a rollout, and imports it back', async function () {
    if (wb.codex) this.skip();
    model.script(
      { output: [execCall('echo hello-from-command', 'call_echo')] },
      {
        output: [
          { toolCall: { name: 'apply_patch', arguments: EDIT_README, callId: 'call_patch', custom: true } },
        ],
      },
      { output: [{ text: 'Ran it and **edited** the readme.' }] },
    );
    const frame = await newThread(wb.page);
    await send(frame, 'Echo, then edit the readme');
    await frame.getByText('edited', { exact: false }).waitFor({ timeout: 30_000 });
    await frame.locator('[data-turn-status="completed"]').waitFor({ timeout: 30_000 });

    const markdown = join(wb.workspace, 'exported-thread.md');
    await runCommand(wb.page, 'Threadline: Export as Markdown…');
    await answerFileDialog(wb.page, markdown);
    const toast = notification(wb.page, /exported to exported-thread\.md/);
    await toast.waitFor({ timeout: 15_000 });
    const md = readFileSync(markdown, 'utf8');
    assert.match(md, /^# Echo, then edit the readme\n/);
    assert.match(md, /> Ran it and \*\*edited\*\* the readme\./);
    assert.match(md, /<details><summary>Output \(1 line\)<\/summary>\n\n```text\nhello-from-command\n```/);
    assert.match(md, /Changed `.*README\.md`\n\n```diff\n@@[\s\S]*-old line\n\+new line\n```/);
    await toast.getByRole('button', { name: 'Open Preview' }).click();
    const preview = wb.page.locator('.tab', { hasText: 'Preview exported-thread.md' });
    await preview.waitFor({ timeout: 20_000 });
    await wb.page.waitForTimeout(1_500); // the preview renders in its own webview
    await screenshot(wb.page, 'exported-markdown-preview');

    const exported = join(wb.workspace, 'exported-rollout.jsonl');
    await runCommand(wb.page, 'Threadline: Export Rollout…');
    await answerFileDialog(wb.page, exported);
    for (let i = 0; i < 50 && !existsSync(exported); i++) await wb.page.waitForTimeout(200);
    assert.ok(existsSync(exported), 'the rollout was exported');
    const before = rollouts(wb.home);

    await runCommand(wb.page, 'Threadline: Import Rollout…');
    await answerFileDialog(wb.page, exported);
    const imported = conversation(wb.page);
    await imported
      .locator('.tl-header', { hasText: 'Echo, then edit the readme' })
      .waitFor({ timeout: 20_000 });
    const after = rollouts(wb.home);
    assert.equal(after.length, before.length + 1, 'a new thread was written');
    const [newFile] = after.filter((f) => !before.includes(f));
    await imported.getByText('hello-from-command', { exact: true }).waitFor({ timeout: 15_000 });
    await imported.locator('[data-item-type="fileChange"]').getByText('README.md').first().waitFor();
    await imported.getByText('edited', { exact: false }).first().waitFor();
    // A new thread: its own id, the exported file left as it was.
    const idOf = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8').split('\n')[0]) as { meta: { id: string } }).meta.id;
    assert.notEqual(idOf(newFile), idOf(exported));
    await view(wb.page, 'Threads')
      .getByText('Echo, then edit the readme')
      .nth(1)
      .waitFor({ timeout: 10_000 });
    assert.deepEqual(wb.browser.consoleErrors, []);
  });
});
