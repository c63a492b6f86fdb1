// Signing in and choosing a model as a user does, in the installed .vsix: the key reaches the restarted
// server as its provider's variable (read from the process itself) and never the log; signing out takes it
// away; the chosen provider and model become settings the status bar shows; a provider added from the
// picker lands in config.toml (modelProvider/config/write) and is chosen.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { useWorkbench } from '../support/harness/uiFixture';
import {
  activityBarItem,
  notification,
  runCommand,
  screenshot,
  sideBarIdle,
} from '../support/harness/workbench';
import { waitForServerChild } from './serverChild';

const key = 'sk-ant-ui-test-0123456789';

describe('sign-in and model choice (installed .vsix)', () => {
  const wb = useWorkbench();
  const input = () => wb.page.locator('.quick-input-widget input');

  /** Picks a row of the open quick pick; a second step (an input box, another pick) may follow. */
  async function pick(text: string): Promise<void> {
    await input().fill(text);
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().click();
  }

  /** The environment of this suite's server process, once one runs that `ready` accepts. */
  const serverEnv = async (ready: (env: string[]) => boolean) =>
    (await waitForServerChild(wb.home, ({ env }) => ready(env))).env;

  it('passes a key to the server as its env_key, keeps it out of the log, and signs out', async () => {
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);
    await serverEnv(() => true);

    await runCommand(wb.page, 'Threadline: Sign in with API Key…');
    await pick('Anthropic');
    await wb.page.locator('.quick-input-widget', { hasText: 'API Key for Anthropic' }).waitFor();
    assert.equal(await input().getAttribute('type'), 'password', 'the key is masked');
    await input().fill(key);
    await input().press('Enter');
    await notification(wb.page, 'Signed in to Anthropic.').waitFor();
    await serverEnv((env) => env.includes(`ANTHROPIC_API_KEY=${key}`));
    const logs = wb.server.extensionHostLogs().map(({ text }) => text);
    assert.ok(
      logs.some((text) => text.includes('[server]')),
      'the server log is there',
    );
    assert.ok(!logs.some((text) => text.includes(key)), 'the key is in no log');

    await runCommand(wb.page, 'Threadline: Sign Out…');
    await pick('anthropic');
    await notification(wb.page, 'Forgot the API key for anthropic.').waitFor();
    await serverEnv((env) => !env.some((v) => v.startsWith('ANTHROPIC_API_KEY=')));
  });

  it('chooses a provider and model into the settings, shown in the status bar', async () => {
    await runCommand(wb.page, 'Threadline: Choose Provider and Model…');
    const ollama = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Ollama' });
    await ollama.waitFor();
    assert.match(await ollama.innerText(), /not running/, 'nothing listens on Ollama’s port here');
    await screenshot(wb.page, 'choose-provider');
    await pick('Ollama');
    await pick('Enter a model name…');
    await wb.page.locator('.quick-input-widget', { hasText: 'Model for Ollama' }).waitFor();
    await input().fill('qwen3-coder');
    await input().press('Enter');
    await wb.page.locator('.part.statusbar', { hasText: 'Threadline · ollama · qwen3-coder' }).waitFor();
    const settings = JSON.parse(readFileSync(wb.server.settingsFile, 'utf8')) as Record<string, unknown>;
    assert.equal(settings['threadline.modelProvider'], 'ollama');
    assert.equal(settings['threadline.model'], 'qwen3-coder');
  });

  it('adds a provider from the picker into config.toml, and chooses it', async () => {
    const config = join(wb.home, 'config.toml');
    const before = existsSync(config) ? readFileSync(config, 'utf8') : '';
    await runCommand(wb.page, 'Threadline: Choose Provider and Model…');
    await pick('Add a Provider…');
    const step = (name: string) =>
      wb.page.locator('.quick-input-widget', { hasText: `Add a Provider: ${name}` });
    for (const [name, value] of [
      ['Name', 'Gateway'],
      ['Base URL', 'http://127.0.0.1:9/v1'],
      ['Key Variable', 'GATEWAY_KEY'],
    ] as const) {
      await step(name).waitFor();
      await input().fill(value);
      await input().press('Enter');
    }
    await notification(wb.page, 'Added Gateway (gateway) to config.toml.').waitFor();
    await pick('Enter a model name…');
    await wb.page.locator('.quick-input-widget', { hasText: 'Model for Gateway' }).waitFor();
    await input().fill('gw-model');
    await input().press('Enter');
    await wb.page.locator('.part.statusbar', { hasText: 'Threadline · gateway · gw-model' }).waitFor();
    const after = readFileSync(config, 'utf8');
    assert.ok(after.startsWith(before.trimEnd()), 'what config.toml held is kept');
    const providers = (parse(after) as { model_providers?: Record<string, unknown> }).model_providers;
    assert.deepEqual(
      { ...(providers?.gateway as object) },
      {
        name: 'Gateway',
        base_url: 'http://127.0.0.1:9/v1',
        env_key: 'GATEWAY_KEY',
      },
    );
    await screenshot(wb.page, 'provider-added');
  });
});
