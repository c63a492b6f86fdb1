// A folder the user has not trusted (VS Code's Restricted Mode), in the installed .vsix: the extension
// still works, but even with config.toml at `never` and `danger-full-access` a command that is not known
// to be safe asks first, a command runs read-only, and the composer says so.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { execCall } from '../support/commands';
import { useWorkbench } from '../support/harness/uiFixture';
import { screenshot } from '../support/harness/workbench';
import { newThread, send, useScriptedModel } from './conversationPage';

describe('Restricted Mode (installed .vsix, an untrusted folder)', function () {
  this.timeout(120_000);
  const wb = useWorkbench({ 'README.md': '# Untrusted clone\n' }, { restricted: true });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'danger-full-access' });

  it('asks before a command although config.toml says never, and runs it read-only', async () => {
    model.script(...execCall({ cmd: 'touch restricted.txt' }, 'Could not write.'));
    const frame = await newThread(wb.page);
    const notice = frame.locator('.tl-restricted');
    await notice.waitFor({ timeout: 30_000 });
    assert.match((await notice.textContent()) ?? '', /Restricted Mode/);
    assert.equal(await frame.locator('[aria-label="Approvals and sandbox"]').count(), 0);
    await send(frame, 'Make a file');
    const card = frame.locator('.tl-prompt');
    await card.waitFor({ timeout: 30_000 });
    assert.equal(await card.locator('.tl-prompt-command').textContent(), 'touch restricted.txt');
    await screenshot(wb.page, 'restricted-mode-prompt');
    // Run it anyway: the sandbox is read-only, so the file still cannot be written.
    await card
      .getByRole('button', { name: /^Accept/ })
      .first()
      .click();
    await frame.getByText('Could not write.').waitFor({ timeout: 30_000 });
    assert.equal(existsSync(join(wb.workspace, 'restricted.txt')), false);
    const sent = model.requests.at(-1)!;
    assert.match(JSON.stringify(sent.body), /Read-only file system|Permission denied|cannot touch/);
  });
});
