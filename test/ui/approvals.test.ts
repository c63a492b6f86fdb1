// A proposed file change in the installed .vsix, as a user sees it: the agent's patch opens as a diff tab
// with Accept, Accept for session, Decline and Cancel turn in its title bar and, labelled as on the
// cards, in the answer bar above the proposal; Alt+Enter (the card's Enter, held with Alt because the
// proposal is editable) writes the file and closes the tab.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { useWorkbench } from '../support/harness/uiFixture';
import { screenshot, setColorTheme, themes, type ThemeKind } from '../support/harness/workbench';
import { newThread, send, useScriptedModel } from './conversationPage';

const original = 'export function greet(name: string) {\n  return "Hello " + name;\n}\n';
const greeted = 'export function greet(name: string) {\n  return `Hello, ${name}!`;\n}\n';
const patch = [
  '*** Begin Patch',
  '*** Update File: src/app.ts',
  '@@',
  ' export function greet(name: string) {',
  '-  return "Hello " + name;',
  '+  return `Hello, ${name}!`;',
  ' }',
  '*** End Patch',
].join('\n');
const actions = ['Accept', 'Accept for session', 'Decline', 'Cancel turn'];

describe('a proposed edit in the diff editor (installed .vsix)', function () {
  this.timeout(120_000);
  const wb = useWorkbench({ 'README.md': '# Demo\n', 'src/app.ts': original });
  const model = useModelServer();

  // Every file change is asked about under `untrusted`.
  useScriptedModel(wb, () => model.baseUrl, { approval: 'untrusted', sandbox: 'workspace-write' });

  it('opens the diff with its title actions and the labelled answer bar; Alt+Enter accepts, the tab closes', async () => {
    model.script(
      { output: [{ toolCall: { name: 'apply_patch', arguments: patch, callId: 'call_1', custom: true } }] },
      { output: [{ text: 'Greeting updated.' }] },
    );
    const frame = await newThread(wb.page);
    await send(frame, 'Make the greeting friendlier');

    const tab = wb.page.locator('.tab', { hasText: 'Threadline: proposed edit — src/app.ts' });
    await tab.waitFor({ timeout: 30_000 });
    const editor = wb.page.locator('.editor-group-container.active');
    await editor.locator('.monaco-diff-editor').waitFor();
    await editor
      .locator('.monaco-diff-editor .modified .view-line', { hasText: 'Hello, ${name}!' })
      .waitFor({ timeout: 45_000 });
    // The title bar's icons, named as the cards name the answers (the tooltip may add the key).
    const titleActions = () =>
      editor
        .locator('.editor-actions .action-label')
        .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
    const shows = (names: string[], label: string) =>
      names.some((name) => name === label || name.startsWith(`${label} (`));
    let names = await titleActions();
    for (let waited = 0; waited < 30_000 && !actions.every((a) => shows(names, a)); waited += 250) {
      await wb.page.waitForTimeout(250);
      names = await titleActions();
    }
    for (const label of actions)
      assert.ok(shows(names, label), `${label} in the title bar (${names.join(' | ')})`);
    // The answer bar on the proposal's first line: the same answers, labelled, and the keys.
    const bar = editor.locator('.monaco-diff-editor .modified .review-widget');
    await bar.waitFor({ timeout: 30_000 });
    await bar.locator('.comment-additional-actions').getByRole('button').first().waitFor();
    assert.deepEqual(
      (await bar.locator('.comment-additional-actions').getByRole('button').allInnerTexts()).map((t) =>
        t.trim(),
      ),
      actions,
    );
    await bar.getByText('Alt+Enter Accept', { exact: false }).waitFor();
    await editor
      .locator('.monaco-diff-editor .modified .view-line', { hasText: 'Hello, ${name}!' })
      .waitFor();
    // The bar sits right under the proposal's first line, above the changed lines.
    const barBox = (await bar.boundingBox())!;
    const changed = (await editor
      .locator('.monaco-diff-editor .modified .view-line', { hasText: 'Hello, ${name}!' })
      .boundingBox())!;
    assert.ok(barBox.y + barBox.height <= changed.y + 1, 'the bar is above the changed line');
    for (const kind of Object.keys(themes) as ThemeKind[]) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `approvals-diff-editor-${kind}`);
    }
    await setColorTheme(wb.page, 'dark');
    const onDisk = () => readFileSync(join(wb.workspace, 'src/app.ts'), 'utf8');
    assert.equal(onDisk(), original, 'nothing written before Accept');

    // From the keyboard, in the proposal's text.
    await editor.locator('.monaco-diff-editor .modified .view-line', { hasText: 'Hello, ${name}!' }).click();
    await wb.page.keyboard.press('Alt+Enter');
    await tab.waitFor({ state: 'hidden', timeout: 15_000 });
    await frame.getByText('Greeting updated.').waitFor({ timeout: 30_000 });
    assert.equal(onDisk(), greeted);
    assert.deepEqual(wb.browser.consoleErrors, []);
  });
});
