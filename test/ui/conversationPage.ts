// The conversation view as UI tests drive it: its page (the view's or an editor tab's), a new thread
// opened from the command palette, a prompt sent from the composer, and a THREADLINE_HOME config that
// sends every turn to the scripted model server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import type { Workbench } from '../support/harness/uiFixture';
import { activityBarItem, runCommand, sideBarIdle } from '../support/harness/workbench';

const extensionId = 'threadline-dev.threadline';

/**
 * The Conversation view's page, or an editor tab's (panels carry no `purpose` in their frame's URL), or
 * the only Threadline page open: a view shown again after it was hidden has no `purpose` either.
 */
export function conversation(page: Page, where: 'view' | 'panel' | 'only' = 'view'): FrameLocator {
  const purpose = { view: '[src*="purpose=webviewView"]', panel: ':not([src*="purpose="])', only: '' }[where];
  return page
    .frameLocator(`iframe.webview[src*="extensionId=${extensionId}"]${purpose}`)
    .frameLocator('iframe#active-frame');
}

/** Written before the extension's server first starts: every turn goes to the scripted model server. */
export function useScriptedModel(
  wb: Workbench,
  baseUrl: () => string,
  policy: { approval: string; sandbox: string },
): void {
  before(() => {
    // codex refuses `approval_policy = "untrusted"` in its config.toml (0.169), though it takes the
    // policy with each thread: there the extension's settings carry the policy, as a user would set it.
    if (wb.codex)
      wb.server.addUserSettings({
        'threadline.approvalPolicy': policy.approval,
        'threadline.sandboxMode': policy.sandbox,
      });
    const policyLines = wb.codex
      ? []
      : [`approval_policy = "${policy.approval}"`, `sandbox_mode = "${policy.sandbox}"`];
    const config = [
      'model = "test-model"',
      'model_provider = "scripted"',
      ...policyLines,
      '[model_providers.scripted]',
      'name = "Scripted"',
      `base_url = "${baseUrl()}"`,
      'wire_api = "responses"',
      // codex asks for a key (ours goes without one); the workbench's environment holds it.
      ...(wb.codex ? ['env_key = "SCRIPTED_API_KEY"', 'request_max_retries = 0'] : []),
      '',
    ];
    writeFileSync(join(wb.serverHome, 'config.toml'), config.join('\n'));
  });
}

export async function newThread(page: Page): Promise<FrameLocator> {
  await activityBarItem(page, 'Threadline').click();
  await sideBarIdle(page);
  await runCommand(page, 'Threadline: New Thread');
  const frame = conversation(page);
  // The view with no thread open has a composer too: wait for the thread's own header, or a prompt typed
  // now would go into the start view's composer that the new thread is about to replace.
  await frame.locator('.tl-header').waitFor({ timeout: 30_000 });
  await frame.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 30_000 });
  return frame;
}

export async function send(frame: FrameLocator, text: string): Promise<void> {
  const input = frame.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}
