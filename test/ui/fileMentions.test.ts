// `@` file mentions in the installed .vsix against the real server, as a user: typing `@` and a few
// letters lists the workspace's files ranked by the server's fuzzyFileSearch, with the matched letters
// in bold; Enter inserts the path, and the prompt the scripted model receives names that file.
// Screenshots of the open list, light and dark.
import * as assert from 'node:assert/strict';
import { useModelServer } from '../fixtures/modelServer/server';
import { useWorkbench } from '../support/harness/uiFixture';
import { screenshot, setColorTheme } from '../support/harness/workbench';
import { newThread, useScriptedModel } from './conversationPage';

describe('@ file mentions in the composer (installed .vsix)', function () {
  this.timeout(120_000);
  const wb = useWorkbench({
    'README.md': '# Demo\n',
    'src/parser.ts': 'export {};\n',
    'src/printer.ts': 'export {};\n',
    'docs/guide.md': '# Guide\n',
    '.gitignore': 'build/\n',
    'build/parser.js': '// built\n',
  });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'read-only' });

  it('lists ranked files with the matched letters in bold, inserts the chosen path and sends it', async () => {
    model.script({ output: [{ text: 'Read it.' }] });
    const frame = await newThread(wb.page);
    const input = frame.getByRole('textbox', { name: 'Message' });
    await input.pressSequentially('Look at @parsr');
    const list = frame.getByRole('listbox', { name: 'Mentions' });
    const options = list.getByRole('option');
    await options.first().waitFor({ timeout: 20_000 });
    const paths = (await options.allTextContents()).map((text) => text.trim());
    assert.equal(paths[0], 'src/parser.ts', `listed: ${paths.join(', ')}`);
    assert.ok(!paths.includes('build/parser.js'), 'what .gitignore ignores is not offered');
    assert.equal((await options.first().locator('b').allTextContents()).join(''), 'parsr');
    for (const kind of ['light', 'dark'] as const) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `file-mentions-${kind}`);
    }
    await input.press('Enter');
    assert.equal(await input.inputValue(), 'Look at src/parser.ts ');
    await input.pressSequentially('and explain it');
    await input.press('Enter');
    await frame.locator('[data-turn-status="completed"]').waitFor({ timeout: 30_000 });
    const turns = model.requests.filter((r) => r.method === 'POST');
    assert.equal(turns.length, 1);
    assert.match(JSON.stringify(turns[0]!.body), /Look at src\/parser\.ts and explain it/);
    assert.deepEqual(wb.browser.consoleErrors, []);
  });
});
