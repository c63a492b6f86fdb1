// The conversation view in the installed .vsix, driven as a user: a new thread, a prompt sent from the
// composer, the answer streaming in from the scripted model server, a file change and the turn's
// changes, Stop on a running turn, and the conversation and an unsent draft after "Reload Window". The
// same, with the extension set to run the reference server (`codex app-server`) instead of its own.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { patchCall, shellPatchCall } from '../support/patches';
import { useWorkbench } from '../support/harness/uiFixture';
import { until } from '../support/until';
import { activityBarItem, runCommand, screenshot, setColorTheme, view } from '../support/harness/workbench';
import { conversation, newThread as openNewThread, send, useScriptedModel } from './conversationPage';

const patch = [
  '*** Begin Patch',
  '*** Add File: notes.txt',
  '+first note',
  '+second note',
  '*** End Patch',
].join('\n');
const answer = ['Added ', '`notes.txt` ', 'with **two** ', 'notes.', '\n\n```ts\nconst notes = 2;\n```'];

for (const codex of [false, true])
  describe(`the conversation view (installed .vsix${codex ? ', codex app-server' : ''})`, function () {
    this.timeout(120_000);
    const wb = useWorkbench({ 'README.md': '# Demo\n' }, { codex });
    const shot = (name: string) => screenshot(wb.page, codex ? `${name}-codex` : name);
    const model = useModelServer();
    // Writes inside the workspace go ahead without asking.
    useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'workspace-write' });
    const newThread = () => openNewThread(wb.page);

    it('streams the answer, shows the file change and the turn’s changes, in light and dark', async () => {
      model.script(codex ? shellPatchCall(patch) : patchCall(patch));
      // Deltas far enough apart that a busy machine still renders some in between (150 ms was not).
      model.script({ output: [{ text: answer }], eventDelayMs: 500 });
      const frame = await newThread();
      await send(frame, 'Add a notes file');

      const agent = frame.locator('[data-item-type="agentMessage"]').last();
      const seen = new Set<string>();
      const final = 'Added notes.txt with two notes.';
      for (const end = Date.now() + 30_000; Date.now() < end;) {
        const text = ((await agent.textContent({ timeout: 30_000 }).catch(() => '')) ?? '').trim();
        if (text) seen.add(text);
        if (text.startsWith(final) && text.includes('const notes')) break;
        await wb.page.waitForTimeout(20);
      }
      assert.ok(seen.size >= 2, `the answer arrived in steps: ${JSON.stringify([...seen])}`);
      assert.equal(await agent.locator('strong').textContent(), 'two');
      assert.ok(await agent.locator('.tl-code .hljs-keyword').count(), 'the code block is highlighted');

      const change = frame.locator('[data-item-type="fileChange"]');
      await change.getByText('notes.txt').waitFor();
      assert.equal(await change.locator('.tl-added').textContent(), '+2');
      await frame.locator('[data-turn-status="completed"]').waitFor();
      // The first prompt names the new thread in the tree and in the view's title, without a refresh.
      await view(wb.page, 'Threads')
        .getByRole('treeitem', { name: /^Add a notes file/ })
        .waitFor();
      await view(wb.page, 'Conversation').locator('.pane-header', { hasText: 'Add a notes file' }).waitFor();
      // Review and Undo need our server's turn checkpoints: with codex the turn offers its diff only.
      const changes = frame.getByRole('button', {
        name: codex ? /^Changes in this turn: 1 file/ : /Review changes/,
      });
      await changes.waitFor();
      if (codex) assert.equal(await frame.getByRole('button', { name: /Undo changes/ }).count(), 0);

      for (const kind of ['light', 'dark'] as const) {
        await setColorTheme(wb.page, kind);
        await shot(`conversation-${kind}`);
      }
      await changes.click();
      await wb.page.locator('.tab', { hasText: 'Changes in this turn' }).waitFor({ timeout: 15_000 });
      await shot('conversation-turn-changes');
      assert.deepEqual(wb.browser.consoleErrors, []);
    });

    it('stops a running turn', async () => {
      model.script({
        output: [{ text: ['Thinking ', 'about ', 'it', ' for a long time'] }],
        stallAfterEvents: 6,
      });
      const frame = await newThread();
      await send(frame, 'Take your time');
      const stop = frame.getByRole('button', { name: 'Stop' });
      await stop.waitFor({ timeout: 30_000 });
      await frame.getByText('Thinking about').waitFor();
      await stop.click();
      await frame.locator('[data-turn-status="interrupted"]').waitFor({ timeout: 15_000 });
      await stop.waitFor({ state: 'hidden' });
      await shot('conversation-interrupted');
    });

    it('keeps the conversation, an editor tab and the unsent draft across Reload Window', async () => {
      model.script({ output: [{ text: 'Remember me.' }] });
      const frame = await newThread();
      await send(frame, 'Say something memorable');
      await frame.getByText('Remember me.').waitFor({ timeout: 30_000 });
      // The turn went through the server under test: its rollout is in that server's home.
      assert.ok(existsSync(join(wb.serverHome, 'sessions')), `no rollouts in ${wb.serverHome}`);
      await frame.getByRole('textbox', { name: 'Message' }).fill('an unsent draft');
      await runCommand(wb.page, 'Threadline: Open in Editor');
      await conversation(wb.page, 'panel').getByText('Remember me.').waitFor({ timeout: 30_000 });

      await runCommand(wb.page, 'Developer: Reload Window');
      await wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
      const panel = conversation(wb.page, 'panel');
      await panel.getByText('Remember me.').waitFor({ timeout: 60_000 });
      // The side bar comes back as it was (Threadline open); a click on its icon would close it.
      if (!(await view(wb.page, 'Conversation').isVisible()))
        await activityBarItem(wb.page, 'Threadline').click();
      const restored = conversation(wb.page);
      await restored.getByText('Remember me.').waitFor({ timeout: 60_000 });
      assert.equal(await restored.getByRole('textbox', { name: 'Message' }).inputValue(), 'an unsent draft');
      // The thread's own model, also where the server's model/list does not name it (codex's does not).
      const picker = restored.locator('vscode-single-select[aria-label="Model"]');
      await until(
        async () => (await picker.evaluate((el) => (el as HTMLSelectElement).value)) === 'test-model',
      );
      await shot('conversation-after-reload');
    });
  });
