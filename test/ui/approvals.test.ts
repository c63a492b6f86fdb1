// A proposed file change in the installed .vsix, as a user sees it: the agent's patch opens as a diff tab
// with Accept, Accept for Session, Decline and Cancel Turn in its title bar, and clicking Accept there
// writes the file and closes the tab.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { useWorkbench } from '../support/harness/uiFixture';
import { screenshot } from '../support/harness/workbench';
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
const actions = [
  'Accept Proposed Change',
  'Accept Proposed Change for Session',
  'Decline Proposed Change',
  'Cancel Turn',
];

describe('a proposed edit in the diff editor (installed .vsix)', function () {
  this.timeout(120_000);
  const wb = useWorkbench({ 'README.md': '# Demo\n', 'src/app.ts': original });
  const model = useModelServer();

  // Every file change is asked about under `untrusted`.
  useScriptedModel(wb, () => model.baseUrl, { approval: 'untrusted', sandbox: 'workspace-write' });

  it('opens the diff with its title actions; Accept there applies the edit and closes the tab', async () => {
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
    for (const label of actions)
      await editor
        .locator(`.editor-actions .action-label[aria-label="${label}"]`)
        .waitFor({ timeout: 10_000 });
    await editor
      .locator('.monaco-diff-editor .modified .view-line', { hasText: 'Hello, ${name}!' })
      .waitFor();
    await screenshot(wb.page, 'approvals-diff-editor');
    const onDisk = () => readFileSync(join(wb.workspace, 'src/app.ts'), 'utf8');
    assert.equal(onDisk(), original, 'nothing written before Accept');

    await editor.locator('.editor-actions .action-label[aria-label="Accept Proposed Change"]').click();
    await tab.waitFor({ state: 'hidden', timeout: 15_000 });
    await frame.getByText('Greeting updated.').waitFor({ timeout: 30_000 });
    assert.equal(onDisk(), greeted);
    assert.deepEqual(wb.browser.consoleErrors, []);
  });
});
