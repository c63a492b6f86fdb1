// A first-time user in the installed .vsix: the side bar opens on a composer, a first prompt with no
// key shows the setup card (nothing reaches the model server) and keeps the draft, signing in from the
// card sends that same draft to a provider that checks the key, and the walkthrough shows the steps
// that really happened as done (checked in the same window: its context keys live there).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { scriptedConfig } from '../support/agent';
import { useWorkbench } from '../support/harness/uiFixture';
import {
  activityBarItem,
  notification,
  pickQuickInput,
  runCommand,
  screenshot,
  setColorTheme,
} from '../support/harness/workbench';
import { conversation } from './conversationPage';

const key = 'sk-first-run-0123456789abcdef';

describe('the first run (installed .vsix)', function () {
  this.timeout(150_000);
  const wb = useWorkbench({ 'README.md': '# Demo\n' });
  const model = useModelServer({ apiKey: key });
  // A server on this machine that takes no key (as Ollama does): the card offers it.
  const local = useModelServer();

  before(() => {
    // A provider that needs a key, and none anywhere: the state every new user starts in.
    const config = [
      scriptedConfig(model.baseUrl, { requestMaxRetries: 0 }),
      '[model_providers.nearby]',
      'name = "Nearby Models"',
      `base_url = "${local.baseUrl}"`,
      'wire_api = "chat"',
      '',
    ];
    writeFileSync(join(wb.home, 'config.toml'), config.join('\n'));
  });

  it('opens on a composer, asks for a key before sending, sends the same draft once signed in, and checks the walkthrough steps done', async () => {
    // A new user opens the walkthrough first. (VS Code checks a step only when its context key turns
    // true while the walkthrough is registered: a key already true then is taken as seen, not done.)
    await runCommand(wb.page, 'Welcome: Open Walkthrough...');
    await pickQuickInput(wb.page, 'Get Started with Threadline');
    const steps = wb.page.locator('.getting-started-step');
    await steps.first().waitFor({ timeout: 30_000 });
    const titles = await wb.page.locator('.getting-started-step .step-title').allTextContents();
    assert.deepEqual(
      titles.map((t) => t.trim()),
      ['Choose a provider and model', 'Sign in with an API key', 'Start a thread', 'Approve a first edit'],
    );
    const done = (title: string) => steps.filter({ hasText: title }).getAttribute('aria-checked');
    assert.equal(await done('Sign in with an API key'), 'false');
    assert.equal(await done('Start a thread'), 'false');

    const opened = Date.now();
    await activityBarItem(wb.page, 'Threadline').click();
    const frame = conversation(wb.page);
    const input = frame.getByRole('textbox', { name: 'Message' });
    await input.waitFor({ timeout: 30_000 });
    console.log(`      composer shown ${Date.now() - opened} ms after the side bar was opened`);
    assert.equal(await frame.getByRole('heading', { name: 'What should we work on?' }).count(), 1);

    await input.fill('Say hello to the new user');
    await input.press('Enter');
    const card = frame.getByRole('region', { name: 'Set up a model provider' });
    await card.waitFor({ timeout: 30_000 });
    assert.match((await card.textContent()) ?? '', /Scripted needs an API key/);
    assert.equal(await card.getByRole('button', { name: 'Choose another provider' }).count(), 1);
    // Only what answers here is offered: the nearby server, not Ollama or LM Studio (not running).
    const useLocal = card.getByRole('button', { name: /Use .* on this machine/ });
    assert.deepEqual(
      (await useLocal.allTextContents()).map((t) => t.trim()),
      ['Use Nearby Models on this machine'],
    );
    assert.ok(
      local.requests.length > 0 && local.requests.every((r) => r.method === 'GET' && r.path === '/v1/models'),
      'the nearby server was only asked whether it answers',
    );

    assert.ok(model.requests.length === 0, 'nothing reached the model server');
    assert.equal(await input.inputValue(), 'Say hello to the new user', 'the draft stays');
    for (const kind of ['dark', 'light'] as const) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `first-run-setup-card-${kind}`);
    }

    model.script({ output: [{ text: 'Hello, new user!' }] });
    await card.getByRole('button', { name: 'Sign in with an API key' }).click();
    const keyInput = wb.page.locator('.quick-input-widget input');
    await wb.page.locator('.quick-input-widget', { hasText: 'API Key for Scripted' }).waitFor();
    assert.equal(await keyInput.getAttribute('type'), 'password');
    await keyInput.fill(key);
    await keyInput.press('Enter');
    await notification(wb.page, 'Signed in to Scripted.').waitFor({ timeout: 30_000 });

    await frame.getByText('Hello, new user!').waitFor({ timeout: 60_000 });
    assert.equal(await card.count(), 0, 'the card is gone');
    assert.equal(await input.inputValue(), '', 'the draft was sent');
    const posts = model.requests.filter((r) => r.method === 'POST');
    assert.equal(posts.length, 1, 'one turn, sent once');
    assert.equal(posts[0]!.headers.authorization, `Bearer ${key}`, 'with the key the provider checks');
    assert.match(JSON.stringify(posts[0]!.body), /Say hello to the new user/);
    // Only the editor's "is a local server answering" probe goes without a key: it lists no models.
    const keyless = model.requests.filter((r) => r.headers.authorization !== `Bearer ${key}`);
    assert.ok(
      keyless.every((r) => r.method === 'GET' && r.path === '/v1/models'),
      `only model-list probes went out without the key: ${keyless.map((r) => `${r.method} ${r.path}`).join(', ')}`,
    );
    // The thread shows the prompt the user typed before signing in.
    await frame.locator('.tl-user', { hasText: 'Say hello to the new user' }).waitFor();

    // Back in the walkthrough: what was done above is checked, by the keys the extension set.
    await wb.page.locator('.tabs-container .tab', { hasText: 'Welcome' }).click();
    // From there, Focus Composer's key puts the cursor into the composer.
    const composer = frame.getByRole('textbox', { name: 'Message' });
    const focused = () => composer.evaluate((el) => el === document.activeElement && document.hasFocus());
    assert.equal(await focused(), false);
    await wb.page.keyboard.press('Control+Shift+Quote');
    for (const end = Date.now() + 10_000; !(await focused());) {
      if (Date.now() > end) assert.fail("Ctrl+Shift+' did not focus the composer");
      await wb.page.waitForTimeout(100);
    }
    await wb.page.locator('.tabs-container .tab', { hasText: 'Welcome' }).click();
    assert.equal(await done('Choose a provider and model'), 'true');
    assert.equal(await done('Sign in with an API key'), 'true');
    assert.equal(await done('Start a thread'), 'true');
    assert.equal(await done('Approve a first edit'), 'false');
    // The step's media shows beside the steps only in a wide editor; a theme change shows the welcome
    // page's overview again, so the walkthrough is opened after it.
    await runCommand(wb.page, 'View: Close Primary Side Bar');
    await runCommand(wb.page, 'Notifications: Clear All Notifications');
    for (const kind of ['dark', 'light'] as const) {
      await setColorTheme(wb.page, kind);
      await runCommand(wb.page, 'Welcome: Open Walkthrough...');
      await pickQuickInput(wb.page, 'Get Started with Threadline');
      await wb.page
        .locator('.getting-started-step.expanded .step-title', { hasText: 'Approve a first edit' })
        .waitFor();
      // The step's picture is drawn in its own frame; the screenshot waits for it.
      await wb.page
        .frameLocator('.getting-started-media iframe')
        .frameLocator('iframe#active-frame')
        .locator('svg')
        .waitFor();
      await screenshot(wb.page, `walkthrough-${kind}`);
    }
  });
});
