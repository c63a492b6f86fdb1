// Plan mode and `/` commands in the installed .vsix, as a user: `/plan` puts the thread in plan mode,
// the scripted model's attempt to write is refused and its plan shows as a card; Implement continues
// the thread in the default mode (the model is told so); a prompt file of the user's is sent with its
// argument filled in. Screenshots of the menu and the plan card in light, dark and high contrast.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { useWorkbench } from '../support/harness/uiFixture';
import { screenshot, setColorTheme, themes, type ThemeKind } from '../support/harness/workbench';
import { newThread, useScriptedModel } from './conversationPage';

const PLAN =
  '<proposed_plan>\n1. Add `greet()` to src/greet.ts\n2. Call it from main.ts\n3. Run the tests\n</proposed_plan>';

describe('plan mode and / commands (installed .vsix)', function () {
  this.timeout(180_000);
  const wb = useWorkbench({
    'README.md': '# Demo\n',
    '.threadline/prompts/triage.md': '---\ndescription: Triage an issue of this repository\n---\nTriage $1',
  });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'workspace-write' });
  before(() => {
    mkdirSync(join(wb.home, 'prompts'), { recursive: true });
    writeFileSync(
      join(wb.home, 'prompts', 'explain.md'),
      '---\ndescription: Explain a file in two sentences\nargument-hint: <file>\n---\nExplain $1 in two sentences.\n',
    );
  });
  const posts = () => model.requests.filter((r) => r.method === 'POST');

  it('/plan, a refused write, the plan card, then Implement runs in the default mode', async () => {
    model.script(
      {
        output: [
          {
            toolCall: {
              name: 'exec_command',
              arguments: JSON.stringify({ cmd: 'echo planted > planted.txt' }),
              callId: 'c_write',
            },
          },
        ],
      },
      { output: [{ text: `Here is the plan.\n${PLAN}` }] },
      { output: [{ text: 'Implemented.' }] },
    );
    const frame = await newThread(wb.page);
    const input = frame.getByRole('textbox', { name: 'Message' });
    await input.pressSequentially('/');
    const menu = frame.getByRole('listbox', { name: 'Commands' });
    await menu.getByText('/prompts:explain').waitFor({ timeout: 15_000 });
    await menu.getByText('/prompts:triage').waitFor();
    for (const kind of Object.keys(themes) as ThemeKind[]) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `slash-menu-${kind}`);
    }
    await input.pressSequentially('pla');
    await input.press('Enter');
    const toggle = frame.getByRole('button', { name: 'Plan', exact: true });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    await input.pressSequentially('Add a greeting');
    await input.press('Enter');

    const card = frame.locator('.tl-plan-card');
    await card.getByRole('button', { name: 'Implement' }).waitFor({ timeout: 30_000 });
    assert.match((await card.textContent())!, /Add greet\(\) to src\/greet\.ts/);
    assert.equal(existsSync(join(wb.workspace, 'planted.txt')), false, 'plan mode wrote nothing');
    const [planTurn, afterRefusal] = posts();
    assert.match(JSON.stringify(planTurn!.body), /You are in plan mode/);
    assert.match(JSON.stringify(afterRefusal!.body), /This is plan mode: only commands known to only read/);
    for (const kind of Object.keys(themes) as ThemeKind[]) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `plan-card-${kind}`);
    }

    await card.getByRole('button', { name: 'Implement' }).click();
    await frame.getByText('Implemented.').waitFor({ timeout: 30_000 });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    const implement = JSON.stringify(posts()[2]!.body);
    assert.match(implement, /Implement the plan\./);
    assert.match(implement, /# Collaboration mode\\nNo longer in force/, 'the model is told plan mode ended');
    assert.deepEqual(wb.browser.consoleErrors, []);
  });

  it("sends a user's prompt file with its argument filled in", async () => {
    model.script({ output: [{ text: 'It is a readme.' }] });
    const frame = await newThread(wb.page);
    const input = frame.getByRole('textbox', { name: 'Message' });
    await input.pressSequentially('/prompts:ex');
    await frame
      .getByRole('listbox', { name: 'Commands' })
      .getByText('Explain a file')
      .waitFor({ timeout: 15_000 });
    await input.press('Tab');
    assert.equal(await input.inputValue(), '/prompts:explain ');
    await input.pressSequentially('README.md');
    await input.press('Enter');
    await frame.getByText('It is a readme.').waitFor({ timeout: 30_000 });
    const sent = JSON.stringify(posts().at(-1)!.body);
    assert.match(sent, /Explain README\.md in two sentences\./);
    assert.doesNotMatch(sent, /\/prompts:explain/);

    await input.pressSequentially('/status');
    await input.press('Enter');
    const status = frame.getByRole('status', { name: 'Status' });
    await status.getByText('test-model').waitFor({ timeout: 15_000 });
    await status.getByText(/tokens in this thread/).waitFor();
    await screenshot(wb.page, 'slash-status');
    assert.deepEqual(wb.browser.consoleErrors, []);
  });
});
