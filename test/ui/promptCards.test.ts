// Prompt cards in the installed .vsix, against the real server and the scripted model: a command the
// agent asks to run shows a card above the composer while the user types a draft; Enter (Accept) runs it, Decline
// (from the keyboard) does not, and Stop takes the card of the interrupted turn away. The draft and the
// composer's focus survive all of it. A file change answered from its card closes its diff tab. The
// same with `codex app-server` as the extension's server.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { useModelServer } from '../fixtures/modelServer/server';
import { execCall } from '../support/commands';
import { patchCall, shellPatchCall } from '../support/patches';
import { resultsPath } from '../support/harness/paths';
import { useWorkbench } from '../support/harness/uiFixture';
import { runCommand, screenshot, setColorTheme } from '../support/harness/workbench';
import { newThread, send, useScriptedModel } from './conversationPage';

for (const codex of [false, true])
  describe(`prompt cards in the conversation view (installed .vsix${codex ? ', codex app-server' : ''})`, function () {
    this.timeout(120_000);
    const wb = useWorkbench(
      { 'README.md': '# Demo\n', 'src/app.ts': 'export const greeting = "Hello";\n' },
      { codex },
    );
    const shot = (name: string) => (codex ? `${name}-codex` : name);
    const model = useModelServer();
    // Anything not on the known-safe list asks first.
    useScriptedModel(wb, () => model.baseUrl, { approval: 'untrusted', sandbox: 'workspace-write' });

    const card = (frame: FrameLocator) => frame.locator('.tl-prompt');
    const composer = (frame: FrameLocator) => frame.getByRole('textbox', { name: /Message|Steer/ });
    const outcome = (frame: FrameLocator) => frame.locator('.tl-prompt-outcome-label').last();
    const composerHasFocus = (frame: FrameLocator) =>
      composer(frame).evaluate((el) => el.ownerDocument.activeElement === el);

    it('shows a command card above the composer while a draft is typed; Enter on it accepts, the draft intact', async () => {
      model.script(...execCall({ cmd: 'echo card-approved && touch ran.txt' }, 'Ran it.'));
      const frame = await newThread(wb.page);
      await send(frame, 'Make a file');
      // The user starts the next message at once; the card arrives while they type.
      const input = composer(frame);
      await input.click();
      await input.pressSequentially('a draft typed while the agent works', { delay: 40 });
      await card(frame).waitFor({ timeout: 30_000 });
      await input.pressSequentially(', still typing', { delay: 20 });
      assert.equal(await input.inputValue(), 'a draft typed while the agent works, still typing');
      assert.ok(await composerHasFocus(frame), 'the composer kept the focus');

      const cardBox = (await card(frame).boundingBox())!;
      const inputBox = (await input.boundingBox())!;
      assert.ok(cardBox.y + cardBox.height <= inputBox.y, 'the card is above the composer');
      // In the side bar's short view too: what is asked scrolls, the answers stay in sight.
      const answers = (await card(frame).getByRole('toolbar', { name: 'Answers' }).boundingBox())!;
      const composerTop = (await frame.locator('.tl-composer').boundingBox())!.y;
      assert.ok(answers.y + answers.height <= composerTop, 'the answer buttons show above the composer');
      // The command as the server will run it: codex wraps it in the shell it runs it with.
      const command = 'echo card-approved && touch ran.txt';
      assert.equal(
        await card(frame).locator('.tl-prompt-command').textContent(),
        codex ? `/bin/bash -lc '${command}'` : command,
      );
      assert.equal(await card(frame).locator('.tl-prompt-heading').textContent(), 'Run this command?');
      assert.equal(existsSync(join(wb.workspace, 'ran.txt')), false, 'nothing ran before the answer');
      // The one answer set: labels and keys as on every approval, only those the request allows; the
      // rule Always allow stores, exactly as stored.
      const labels = await card(frame).locator('[role=toolbar] button').allTextContents();
      if (codex)
        assert.ok(
          labels.every((l) => /^(Accept|Accept for sessionS|Always allowA|DeclineEsc|Cancel turnC)$/.test(l)),
          labels.join(),
        );
      else {
        assert.deepEqual(labels, [
          'Accept',
          'Accept for sessionS',
          'Always allowA',
          'DeclineEsc',
          'Cancel turnC',
        ]);
        assert.equal(
          await card(frame).locator('.tl-prompt-rule pre code').textContent(),
          'prefix_rule(pattern=["touch","ran.txt"], decision="allow")',
        );
      }
      for (const kind of ['light', 'dark', 'high-contrast'] as const) {
        await setColorTheme(wb.page, kind);
        await screenshot(wb.page, shot(`prompt-command-${kind}`));
        await card(frame).screenshot({
          path: resultsPath('ui', `${shot(`prompt-command-card-${kind}`)}.png`),
        });
      }
      await setColorTheme(wb.page, 'dark');

      // Answered from the keyboard: the card focused (Shift+Tab from the composer), Enter accepts.
      await input.press('Shift+Tab');
      await wb.page.keyboard.press('Enter');
      const item = frame.locator('[data-item-type="commandExecution"]');
      await item.locator('.tl-terminal', { hasText: 'card-approved' }).waitFor({ timeout: 30_000 });
      await frame.getByText('Ran it.').waitFor({ timeout: 30_000 });
      assert.equal(existsSync(join(wb.workspace, 'ran.txt')), true);
      assert.equal(await card(frame).count(), 0);
      assert.equal(await input.inputValue(), 'a draft typed while the agent works, still typing');
      assert.deepEqual(wb.browser.consoleErrors, []);
    });

    const declineTitle = codex
      ? 'offers no Decline where the server does not: Escape answers nothing, C cancels the turn'
      : 'declines from the keyboard (Shift+Tab from the composer, Escape): the command does not run';
    it(declineTitle, async () => {
      model.script(...execCall({ cmd: 'touch declined.txt' }, 'Fine, I will not.'));
      const frame = await newThread(wb.page);
      await send(frame, 'Make another file');
      await card(frame).waitFor({ timeout: 30_000 });
      assert.ok(await composerHasFocus(frame), 'the card did not take the focus');
      // Shift+Tab from the composer reaches the card (its scrolling body when what is asked is long, the
      // card itself otherwise), never one of its buttons; Escape there declines.
      await composer(frame).press('Shift+Tab');
      assert.ok(
        await card(frame).evaluate((el) => {
          const focused = el.ownerDocument.activeElement;
          return !!focused && el.contains(focused) && focused.tagName !== 'BUTTON';
        }),
        'Shift+Tab from the composer focuses the card',
      );
      if (codex) {
        // codex (0.169) offers no Decline for a command, only Run, Always allow and Cancel turn: Escape
        // answers nothing there; C cancels the turn.
        assert.equal(
          await card(frame)
            .getByRole('button', { name: /^Decline/ })
            .count(),
          0,
        );
        await wb.page.keyboard.press('Escape');
        await wb.page.waitForTimeout(500);
        assert.equal(await card(frame).count(), 1, 'still asking');
        await wb.page.keyboard.press('c');
        await frame.locator('[data-turn-status="interrupted"]').waitFor({ timeout: 15_000 });
        assert.equal(existsSync(join(wb.workspace, 'declined.txt')), false);
        return;
      }
      await wb.page.keyboard.press('Escape');
      await frame.getByText('Fine, I will not.').waitFor({ timeout: 30_000 });
      assert.equal(await outcome(frame).textContent(), 'Declined');
      assert.equal(
        await frame.locator('[data-item-type="commandExecution"] .tl-status').first().textContent(),
        ' declined',
      );
      assert.equal(existsSync(join(wb.workspace, 'declined.txt')), false);
      assert.ok(await composerHasFocus(frame), 'the focus went back to the composer');
    });

    it('takes the card of an interrupted turn away', async () => {
      model.script(...execCall({ cmd: 'touch interrupted.txt' }));
      const frame = await newThread(wb.page);
      await send(frame, 'Make a third file');
      await card(frame).waitFor({ timeout: 30_000 });
      await frame.getByRole('button', { name: 'Stop' }).click();
      await frame.locator('[data-turn-status="interrupted"]').waitFor({ timeout: 15_000 });
      await card(frame).waitFor({ state: 'detached', timeout: 15_000 });
      await frame.getByText('Cancelled (turn interrupted)').waitFor({ timeout: 5_000 });
      assert.equal(existsSync(join(wb.workspace, 'interrupted.txt')), false);
    });

    it('accepts a file change from its card: the file is written and its diff tab closes', async () => {
      const patch = [
        '*** Begin Patch',
        '*** Update File: src/app.ts',
        '@@',
        '-export const greeting = "Hello";',
        '+export const greeting = "Hello, world";',
        '+export const farewell = "Bye";',
        '*** End Patch',
      ].join('\n');
      model.script(codex ? shellPatchCall(patch) : patchCall(patch), {
        output: [{ text: 'Greeting changed.' }],
      });
      const frame = await newThread(wb.page);
      await send(frame, 'Change the greeting');
      await card(frame).waitFor({ timeout: 30_000 });
      assert.equal(await card(frame).locator('.tl-prompt-heading').textContent(), 'Apply this change?');
      const row = card(frame).locator('.tl-prompt-files li');
      await row.getByText('src/app.ts').waitFor();
      assert.equal(await row.locator('.tl-added').textContent(), '+2');
      assert.equal(await row.locator('.tl-removed').textContent(), '−1');

      // The proposal opens as a diff tab by itself; closed, the card's Open diff brings it back.
      const tab = wb.page.locator('.tab', { hasText: 'proposed edit — src/app.ts' });
      await tab.waitFor({ timeout: 30_000 });
      await tab.click();
      await runCommand(wb.page, 'View: Close Editor');
      await tab.waitFor({ state: 'detached', timeout: 10_000 });
      await card(frame).getByRole('button', { name: 'Open diff' }).click();
      await tab.waitFor({ timeout: 15_000 });
      await wb.page
        .locator('.monaco-diff-editor .modified .view-line', { hasText: 'farewell' })
        .waitFor({ timeout: 15_000 });
      await screenshot(wb.page, shot('prompt-file-change'));

      // Answered from the keyboard, as the command card: focused, Enter accepts.
      await card(frame).focus();
      await wb.page.keyboard.press('Enter');
      await tab.waitFor({ state: 'detached', timeout: 15_000 });
      await frame.getByText('Greeting changed.').waitFor({ timeout: 30_000 });
      assert.equal(
        readFileSync(join(wb.workspace, 'src/app.ts'), 'utf8'),
        'export const greeting = "Hello, world";\nexport const farewell = "Bye";\n',
      );
      assert.equal(await card(frame).count(), 0);
    });
  });
