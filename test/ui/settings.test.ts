// Settings as a user meets them in the installed .vsix, against the real server: "Threadline: Open
// Settings" lists each effective value with the layer it comes from, and an edit is written into
// config.toml on disk through config/value/write (the user's comments kept; a value the server refuses
// is shown as an error and not written). The composer's approval and sandbox pickers grey out what
// requirements.toml forbids, with no thread open and with one open.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { useModelServer } from '../fixtures/modelServer/server';
import { useWorkbench } from '../support/harness/uiFixture';
import { notification, runCommand, screenshot, setColorTheme } from '../support/harness/workbench';
import { newThread, useScriptedModel } from './conversationPage';

describe('settings (installed .vsix)', function () {
  this.timeout(120_000);
  const wb = useWorkbench({ 'README.md': '# Demo\n' });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'on-request', sandbox: 'read-only' });
  const configFile = () => join(wb.home, 'config.toml');
  before(() => {
    writeFileSync(
      configFile(),
      `# my settings\nmodel_reasoning_effort = "low" # keep me\n${readFileSync(configFile(), 'utf8')}`,
    );
    writeFileSync(
      join(wb.home, 'requirements.toml'),
      'allowed_approval_policies = ["untrusted", "on-request"]\nallowed_sandbox_modes = ["read-only", "workspace-write"]\n',
    );
  });

  const quickRow = (text: string) => wb.page.locator('.quick-input-list .monaco-list-row', { hasText: text });
  const quickInput = () => wb.page.locator('.quick-input-widget input');

  async function edit(keyPath: string, value: string) {
    await runCommand(wb.page, 'Threadline: Open Settings');
    await quickInput().fill(keyPath);
    await quickRow(keyPath).first().click();
    await wb.page.locator('.quick-input-widget', { hasText: `Set ${keyPath} in config.toml` }).waitFor();
    await quickInput().fill(value);
    await quickInput().press('Enter');
  }

  it('lists each value with its layer and writes an edit into config.toml, comments kept', async () => {
    for (const kind of ['light', 'dark'] as const) {
      await setColorTheme(wb.page, kind);
      await runCommand(wb.page, 'Threadline: Open Settings');
      await quickInput().fill('model_reasoning_effort');
      const row = quickRow('model_reasoning_effort').first();
      await row.waitFor();
      assert.match(await row.innerText(), /"low"/);
      assert.ok((await row.innerText()).includes(`from ${configFile()}`), await row.innerText());
      await quickInput().fill('approval_policy');
      assert.match(await quickRow('approval_policy').first().innerText(), /"on-request"[\s\S]*from /);
      await screenshot(wb.page, `open-settings-${kind}`);
      await wb.page.keyboard.press('Escape');
    }

    await edit('model_reasoning_effort', 'high');
    await notification(wb.page, 'model_reasoning_effort saved to').waitFor();
    const text = readFileSync(configFile(), 'utf8');
    assert.match(text, /^# my settings\nmodel_reasoning_effort = "high" # keep me\n/);

    await edit('approval_policy', 'sometimes');
    await notification(wb.page, /approval_policy/)
      .filter({ hasText: /Threadline: / })
      .last()
      .waitFor();
    assert.ok(!readFileSync(configFile(), 'utf8').includes('sometimes'), 'a refused value is not written');
  });

  async function policyChoices(frame: FrameLocator): Promise<{ label: string; disabled: boolean }[]> {
    const shield = frame.getByRole('button', { name: 'Approvals and sandbox' });
    await shield.waitFor({ timeout: 20_000 });
    if (!(await frame.locator('.tl-policy').isVisible())) await shield.click();
    const options = frame.locator('.tl-policy vscode-option');
    await options.first().waitFor({ state: 'attached' });
    return options.evaluateAll((elements) =>
      elements.map((e) => ({
        label: (e.textContent ?? '').trim(),
        disabled: (e as HTMLElement & { disabled?: boolean }).disabled === true || e.hasAttribute('disabled'),
      })),
    );
  }

  it('greys out the policies requirements.toml forbids, before and after a thread starts', async () => {
    const frame = await newThread(wb.page);
    const forbidden = (choices: { label: string; disabled: boolean }[]) =>
      choices.filter((c) => c.disabled).map((c) => c.label);
    // The full-access permission profile first, then the approval policy and the sandbox it is made of.
    const expected = ['Full access (not allowed)', 'Never ask (not allowed)', 'Full access (not allowed)'];
    assert.deepEqual(forbidden(await policyChoices(frame)), expected);
    await screenshot(wb.page, 'policy-forbidden-new-thread');

    model.script({ output: [{ text: 'Hello.' }] });
    const input = frame.getByRole('textbox', { name: 'Message' });
    await input.fill('hi');
    await input.press('Enter');
    await frame.locator('[data-turn-status="completed"]').waitFor({ timeout: 30_000 });
    assert.deepEqual(forbidden(await policyChoices(frame)), expected);
    await frame.locator('[aria-label="Sandbox"]').click();
    await screenshot(wb.page, 'policy-forbidden-open-thread');
    await wb.page.keyboard.press('Escape');
    assert.deepEqual(wb.browser.consoleErrors, []);
  });
});
