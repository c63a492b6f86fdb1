// The thread's goal in the installed .vsix, as a user: `/goal <objective>` shows it in the
// conversation's header, the next turn's request tells the scripted model, and the goal is still in
// the header after Reload Window; `/goal` alone clears it. Screenshots of the header in light and dark.
import * as assert from 'node:assert/strict';
import { useModelServer } from '../fixtures/modelServer/server';
import { useWorkbench } from '../support/harness/uiFixture';
import { activityBarItem, runCommand, screenshot, setColorTheme, view } from '../support/harness/workbench';
import { conversation, newThread, send, useScriptedModel } from './conversationPage';

const OBJECTIVE = 'Port the CLI to Windows without breaking the macOS build';

describe('the thread goal (installed .vsix)', function () {
  this.timeout(180_000);
  const wb = useWorkbench({ 'README.md': '# Demo\n' });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'workspace-write' });
  const posts = () => model.requests.filter((r) => r.method === 'POST');

  it('sets the goal with /goal, shows it in the header, tells the model, keeps it across Reload Window, clears it', async () => {
    model.script({ output: [{ text: 'First answer.' }] }, { output: [{ text: 'Working on the goal.' }] });
    const frame = await newThread(wb.page);
    await send(frame, 'Where do we start?');
    await frame.getByText('First answer.').waitFor({ timeout: 30_000 });

    const input = frame.getByRole('textbox', { name: 'Message' });
    await input.fill(`/goal ${OBJECTIVE}`);
    await input.press('Enter');
    const chip = frame.locator('header .tl-goal');
    await chip.waitFor({ timeout: 15_000 });
    assert.equal(await chip.getAttribute('title'), `Goal (active): ${OBJECTIVE}`);
    for (const kind of ['light', 'dark'] as const) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `goal-header-${kind}`);
    }

    await send(frame, 'Go on');
    await frame.getByText('Working on the goal.').waitFor({ timeout: 30_000 });
    const [first, second] = posts();
    assert.doesNotMatch(JSON.stringify(first!.body), /Thread goal/);
    assert.match(
      JSON.stringify(second!.body),
      new RegExp(`# Thread goal\\\\nObjective \\(set by the user\\): ${OBJECTIVE}`),
    );

    await runCommand(wb.page, 'Developer: Reload Window');
    await wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    // The side bar comes back as it was; checked at once it can still be restoring, and a click on its
    // icon then would close it.
    const shown = await view(wb.page, 'Conversation')
      .waitFor({ timeout: 15_000 })
      .then(
        () => true,
        () => false,
      );
    if (!shown) await activityBarItem(wb.page, 'Threadline').click();
    const restored = conversation(wb.page);
    await restored.getByText('Working on the goal.').waitFor({ timeout: 60_000 });
    await restored.locator('header .tl-goal').waitFor({ timeout: 30_000 });
    assert.match((await restored.locator('header .tl-goal').textContent())!, /Port the CLI to Windows/);
    await screenshot(wb.page, 'goal-header-after-reload');

    const again = restored.getByRole('textbox', { name: 'Message' });
    await again.fill('/goal');
    await again.press('Enter');
    await restored.locator('header .tl-goal').waitFor({ state: 'detached', timeout: 15_000 });
  });
});
