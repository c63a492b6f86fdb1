// `$` skill completion in the installed .vsix, as a user: a skill in the user's skills folder is
// offered when `$` is typed in the composer, Enter inserts `$name`, and the sent prompt's request to
// the scripted model carries the skill's instructions. Screenshots of the open list, light and dark.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { useWorkbench } from '../support/harness/uiFixture';
import { screenshot, setColorTheme } from '../support/harness/workbench';
import { newThread, useScriptedModel } from './conversationPage';

describe('skills in the composer (installed .vsix)', function () {
  this.timeout(120_000);
  const wb = useWorkbench({ 'README.md': '# Demo\n' });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'read-only' });
  before(() => {
    for (const [name, description] of [
      ['lint', 'Run the project linters and fix what they report'],
      ['release-notes', 'Draft release notes from the merged changes'],
    ]) {
      mkdirSync(join(wb.home, 'skills', name!), { recursive: true });
      writeFileSync(
        join(wb.home, 'skills', name!, 'SKILL.md'),
        `---\nname: ${name}\ndescription: ${description}\n---\n${name!.toUpperCase()}-STEPS\n`,
      );
    }
  });

  it('offers skills after $, inserts the chosen one and sends its instructions', async () => {
    model.script({ output: [{ text: 'Linted.' }] });
    const frame = await newThread(wb.page);
    const input = frame.getByRole('textbox', { name: 'Message' });
    await input.pressSequentially('Please $');
    const options = frame.getByRole('listbox', { name: 'Skills' }).getByRole('option');
    await options.first().waitFor({ timeout: 15_000 });
    assert.equal(await options.count(), 2);
    await input.pressSequentially('li');
    await frame.getByRole('listbox', { name: 'Skills' }).getByText('Run the project linters').waitFor();
    assert.equal(await options.count(), 1);
    for (const kind of ['light', 'dark'] as const) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `skills-completion-${kind}`);
    }
    await input.press('Enter');
    assert.equal(await input.inputValue(), 'Please $lint ');
    await input.pressSequentially('the changed files');
    await input.press('Enter');
    await frame.locator('[data-turn-status="completed"]').waitFor({ timeout: 30_000 });
    // The composer lists models (a GET) too; the turn is the one POST.
    const turns = model.requests.filter((r) => r.method === 'POST');
    assert.equal(turns.length, 1);
    const body = JSON.stringify(turns[0]!.body);
    assert.equal(body.split('LINT-STEPS').length - 1, 1, 'the skill went once, as the picked item');
    assert.ok(!body.includes('RELEASE-NOTES-STEPS'));
    assert.deepEqual(wb.browser.consoleErrors, []);
  });
});
