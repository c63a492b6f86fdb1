// The marketplace listing's screenshots, taken from the installed .vsix as a user drives it: a turn that
// reads a file and proposes an edit (the approval in the diff editor), the finished conversation, Undo
// asking with its list of files, Search Threads finding a word, and the setup card of a provider with no
// key. Each in VS Code's Dark Modern and Light Modern at the harness's fixed 1280×800, in
// test-results/ui/ like every UI picture; with THREADLINE_SCREENSHOTS=media they also replace the ones in
// media/screenshots/ that README shows (vsce points the listing at the repository's copies). Every run
// draws new clocks and temp names, so an ordinary test run leaves the committed pictures alone.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { useModelServer } from '../fixtures/modelServer/server';
import { repoRoot } from '../support/paths';
import { writeRollout } from '../support/rollouts';
import { useWorkbench } from '../support/harness/uiFixture';
import { tempDir } from '../support/tempDirs';
import {
  openWorkbench,
  pickQuickInput,
  runCommand,
  screenshot,
  sideBarIdle,
} from '../support/harness/workbench';
import { consoleErrorsButThemeSaves, newThread, send, useScriptedModel } from './conversationPage';

const shotsDir = join(repoRoot, 'media', 'screenshots');

const greetBefore = [
  'export function greet(name: string): string {',
  '  return "Hello " + name;',
  '}',
  '',
].join('\n');
const greetAfter = [
  'export function greet(name: string): string {',
  '  const who = name.trim() || "there";',
  '  return `Hello, ${who}!`;',
  '}',
  '',
].join('\n');
const patch = [
  '*** Begin Patch',
  '*** Update File: src/greet.ts',
  '@@',
  ' export function greet(name: string): string {',
  '-  return "Hello " + name;',
  '+  const who = name.trim() || "there";',
  '+  return `Hello, ${who}!`;',
  ' }',
  '*** End Patch',
].join('\n');

const files = {
  'README.md': '# greeter\n\nSays hello.\n',
  'package.json': '{\n  "name": "greeter",\n  "version": "1.0.0",\n  "type": "module"\n}\n',
  'src/greet.ts': greetBefore,
  'src/main.ts': [
    'import { greet } from "./greet";',
    '',
    'export function main(args: string[]): string {',
    '  return greet(args[0] ?? "");',
    '}',
    '',
  ].join('\n'),
};

/**
 * The console's errors but the theme saves, and the workbench's failed read of snippets from the
 * `.vscode` placeholder the sandbox binds while the turn's command runs (docs/sandbox.md: protected
 * names that do not exist yet), gone by the time the workbench looks in it.
 */
const unexpectedErrors = (errors: string[]) =>
  consoleErrorsButThemeSaves(errors).filter((e) => !/Failed snippets from folder '[^']*\/\.vscode'/.test(e));

type Theme = 'dark' | 'light';
const themeLabels: Record<Theme, string> = { dark: 'Dark Modern', light: 'Light Modern' };

describe('the marketplace screenshots (installed .vsix)', function () {
  this.timeout(150_000);
  const wb = useWorkbench(files);
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'untrusted', sandbox: 'workspace-write' });

  /** Picks the theme as a user does; the workbench and the webviews take its colours a moment later. */
  let shown: Theme = 'dark';
  async function useTheme(theme: Theme): Promise<void> {
    if (theme === shown) return;
    shown = theme;
    await runCommand(wb.page, 'Preferences: Color Theme');
    await pickQuickInput(wb.page, themeLabels[theme]);
    // The palette gives the focus back to the editor's tab, whose title then shows its tooltip: the
    // focus goes into the editor's text instead, as after a click there, and Escape closes any hover.
    const text = wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
    if (await text.isVisible()) await text.click();
    await wb.page.keyboard.press('Escape');
    await wb.page.waitForTimeout(500);
  }

  /**
   * Opens a folder named as a project is (the harness's own has a random name, which the title bar and
   * the approval card would show), the side bar wide enough for a conversation, no panel.
   */
  async function openProject(settings: Record<string, unknown> = {}): Promise<string> {
    const folder = join(tempDir('threadline-shots-'), 'greeter');
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, name)), { recursive: true });
      writeFileSync(join(folder, name), text);
    }
    wb.server.addUserSettings({
      'workbench.colorTheme': themeLabels.dark,
      // Side by side beside the wider side bar, as on a larger screen.
      'diffEditor.useInlineViewWhenSpaceIsLimited': false,
      ...settings,
    });
    await wb.page.goto('about:blank');
    wb.browser.consoleErrors.length = 0; // the closed window's own shutdown, as between tests
    await openWorkbench(wb.page, wb.server.workbenchUrl(folder));
    shown = 'dark';
    const sideBar = (await wb.page.locator('.part.sidebar').boundingBox())!;
    const edge = { x: sideBar.x + sideBar.width + 1, y: sideBar.y + sideBar.height / 2 };
    await wb.page.mouse.move(edge.x, edge.y);
    await wb.page.mouse.down();
    await wb.page.mouse.move(edge.x + 100, edge.y, { steps: 5 });
    await wb.page.mouse.up();
    return folder;
  }

  /** The picture in test-results/ui, and when asked for, in media/screenshots/ for the README. */
  async function shoot(page: Page, name: string, theme: Theme): Promise<void> {
    const file = await screenshot(page, `marketplace-${name}-${theme}`);
    if (process.env.THREADLINE_SCREENSHOTS !== 'media') return;
    mkdirSync(shotsDir, { recursive: true });
    copyFileSync(file, join(shotsDir, `${name}-${theme}.png`));
  }

  /** Threads of earlier days in this workspace, so the Threads view and the search have something to show. */
  function earlierThreads(cwd: string): void {
    const hour = 3_600_000;
    const threads = [
      { name: 'Add a --shout flag to the CLI', ago: 2 * hour, said: 'The flag upper-cases the greeting.' },
      { name: 'Why does CI fail on Node 20?', ago: 5 * hour, said: 'The lockfile pinned an old tsx.' },
      {
        name: 'Publish the package to npm',
        ago: 30 * hour,
        said: 'Bumped the version and added the files field, so the tarball keeps only dist.',
      },
      { name: 'Set up Vitest', ago: 50 * hour, said: 'Added vitest with a first test for greet.' },
    ];
    for (const [i, thread] of threads.entries())
      writeRollout(wb.home, {
        name: thread.name,
        cwd,
        createdAtMs: Date.now() - thread.ago,
        modelProvider: 'scripted',
        turns: [{ id: `earlier-${i}`, userText: thread.name, answer: thread.said }],
      });
  }

  it('shows an approval, a conversation, undo, search and the setup card in dark and light', async () => {
    const project = await openProject();
    earlierThreads(project);
    model.script(
      {
        output: [
          { text: 'Let me see how the greeting is built first.' },
          {
            toolCall: {
              name: 'exec_command',
              arguments: JSON.stringify({ cmd: 'cat src/greet.ts' }),
              callId: 'call_read',
            },
          },
        ],
      },
      {
        output: [{ toolCall: { name: 'apply_patch', arguments: patch, callId: 'call_patch', custom: true } }],
      },
      {
        output: [
          {
            text:
              'Done. `greet` now trims the name, falls back to **"there"** when it is empty, and ' +
              'punctuates the greeting:\n\n- `greet("Ada")` → `Hello, Ada!`\n- `greet("  ")` → `Hello, there!`',
          },
        ],
      },
    );
    const frame = await newThread(wb.page);
    await send(frame, 'Make the greeting friendlier, and handle an empty name');

    // The approval in the diff editor, its answer bar under the proposal's first line.
    const editor = wb.page.locator('.editor-group-container.active');
    const proposal = editor.locator('.monaco-diff-editor .modified .view-line', {
      hasText: 'Hello, ${who}!',
    });
    await proposal.waitFor({ timeout: 45_000 });
    const bar = editor.locator('.monaco-diff-editor .modified .review-widget');
    await bar.locator('.comment-additional-actions').getByRole('button').first().waitFor({ timeout: 30_000 });
    await runCommand(wb.page, 'View: Hide Panel'); // the Comments panel the answer bar opened
    await shoot(wb.page, 'approval', 'dark');
    await useTheme('light');
    await shoot(wb.page, 'approval', 'light');
    await proposal.click();
    await wb.page.keyboard.press('Alt+Enter');

    // The finished turn: the command, the change with Review and Undo, the answer.
    await frame.locator('[data-turn-status="completed"]').first().waitFor({ timeout: 30_000 });
    await frame.getByText('Hello, there!').waitFor();
    assert.equal(readFileSync(join(project, 'src/greet.ts'), 'utf8'), greetAfter);
    await frame.getByRole('button', { name: /Review changes/ }).click();
    await wb.page.locator('.multiDiffEditor').getByText('greet.ts').first().waitFor({ timeout: 15_000 });
    // The end of the turn in view, and no tooltip left over from the click on the editor's tab.
    const jump = frame.getByRole('button', { name: /Jump to latest/ });
    if (await jump.isVisible()) await jump.click();
    await frame.getByText('Hello, there!').scrollIntoViewIfNeeded();
    await wb.page.mouse.move(900, 600);
    await wb.page.waitForTimeout(800);
    await shoot(wb.page, 'conversation', 'light');
    await useTheme('dark');
    await shoot(wb.page, 'conversation', 'dark');

    // Undo asks first, listing the files it will put back.
    const dialog = wb.page.locator('.monaco-dialog-box');
    for (const theme of ['dark', 'light'] as const) {
      await useTheme(theme);
      // As /undo from the composer: the button in the turn's header would scroll the view up to it.
      const composer = frame.getByRole('textbox', { name: 'Message' });
      await composer.pressSequentially('/undo');
      await composer.press('Enter');
      await dialog.getByText('src/greet.ts').waitFor({ timeout: 15_000 });
      await shoot(wb.page, 'undo', theme);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }

    // Search Threads: every word said in every thread, ranked, with the line that matched.
    const input = wb.page.locator('.quick-input-widget input[placeholder^="Type to search names"]');
    for (const theme of ['light', 'dark'] as const) {
      await useTheme(theme);
      await runCommand(wb.page, 'Threadline: Search Threads…');
      await input.pressSequentially('tarball', { delay: 30 });
      await wb.page
        .locator('.quick-input-list .monaco-list-row', { hasText: 'Publish the package to npm' })
        .getByText(/the tarball keeps only dist/)
        .waitFor({ timeout: 15_000 });
      await shoot(wb.page, 'search', theme);
      await input.press('Escape');
    }
    assert.deepEqual(unexpectedErrors(wb.browser.consoleErrors), []);
  });

  it('shows the setup card of a provider with no key, in dark and light', async () => {
    // OpenAI, built in, with no key anywhere: what a new user meets on the first prompt; the scripted
    // server stands for an Ollama running on this machine, which the card offers.
    writeFileSync(
      join(wb.serverHome, 'config.toml'),
      `[model_providers.ollama]\nbase_url = "${model.baseUrl}"\nwire_api = "chat"\n`,
    );
    const project = await openProject({
      'threadline.modelProvider': 'openai',
      'threadline.model': 'gpt-5.1-codex',
    });
    earlierThreads(project);
    // The file the prompt is about, open in the editor.
    await wb.page.keyboard.press('Control+P');
    await wb.page.locator('.quick-input-widget input').fill('main.ts');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'main.ts' }).first().click();
    await wb.page.locator('.tab', { hasText: 'main.ts' }).waitFor({ timeout: 15_000 });
    const frame = await newThread(wb.page);
    await send(frame, 'Add a --shout flag that upper-cases the greeting');
    const card = frame.getByRole('region', { name: 'Set up a model provider' });
    for (const theme of ['dark', 'light'] as const) {
      await useTheme(theme);
      await card.waitFor({ timeout: 30_000 });
      await sideBarIdle(wb.page);
      await shoot(wb.page, 'setup', theme);
    }
    assert.deepEqual(
      model.requests.filter((request) => request.method !== 'GET'),
      [],
      'nothing but a look at the models list reached the local server',
    );
    assert.deepEqual(unexpectedErrors(wb.browser.consoleErrors), []);
  });
});
