// Where a thread opens, in the installed .vsix: with `threadline.conversation.openIn` on editor tabs,
// two threads opened from the Threads tree (a click, a row's Alt+click "Open to the Side") run turns at
// the same time, each tab's title saying its state, and Reload Window brings both back; on the
// secondary side bar, the Conversation view lives there and a prompt sent from it is answered.
import * as assert from 'node:assert/strict';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { useModelServer } from '../fixtures/modelServer/server';
import { execCall } from '../support/commands';
import { writeRollout } from '../support/rollouts';
import { useWorkbench } from '../support/harness/uiFixture';
import {
  activityBarItem,
  pickQuickInput,
  runCommand,
  screenshot,
  setColorTheme,
  sideBarIdle,
  view,
  type ThemeKind,
} from '../support/harness/workbench';
import { until } from '../support/until';
import { conversation, newThread, send, useScriptedModel } from './conversationPage';

const extensionId = 'threadline-dev.threadline';
const themes: ThemeKind[] = ['light', 'dark', 'high-contrast'];

/** The editor tabs' webview frames (panels carry no `purpose` in their frame's URL). */
const panelFrames = (page: Page) =>
  page.locator(`iframe.webview[src*="extensionId=${extensionId}"]:not([src*="purpose="])`);

/** The editor tab's page that shows this text (both tabs are visible side by side). */
async function panelWith(page: Page, text: string): Promise<FrameLocator> {
  let found: FrameLocator | undefined;
  await until(async () => {
    for (const frame of await panelFrames(page).all()) {
      const content = frame.contentFrame().frameLocator('iframe#active-frame');
      if ((await content.getByText(text).count()) > 0) found = content;
    }
    return found !== undefined;
  }, 60_000);
  return found!;
}

/** The Conversation view's webview frame, wherever the view is. */
const viewFrames = (page: Page) =>
  page.locator(`iframe.webview[src*="extensionId=${extensionId}"][src*="purpose=webviewView"]`);

/** Whether `inner` is drawn within `outer`'s left and right edges (webviews float above the parts). */
async function inside(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = await Promise.all([inner.boundingBox(), outer.boundingBox()]);
  assert.ok(a && b, 'both on screen');
  return a.x >= b.x - 1 && a.x + a.width <= b.x + b.width + 1;
}

const editorTab = (page: Page, title: RegExp) =>
  page
    .locator('.part.editor .tabs-container .tab')
    .filter({ has: page.locator('.label-name', { hasText: title }) });

/** The title of each editor tab, in order. */
const tabTitles = (page: Page) =>
  page.locator('.part.editor .tabs-container .tab .label-name').allTextContents();

describe('threads in editor tabs (installed .vsix)', function () {
  this.timeout(240_000);
  const wb = useWorkbench();
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'untrusted', sandbox: 'workspace-write' });
  before(() => wb.server.addUserSettings({ 'threadline.conversation.openIn': 'editor' }));

  const seed = (userText: string, answer: string) =>
    writeRollout(wb.home, {
      cwd: wb.workspace,
      modelProvider: 'scripted',
      turns: [{ id: 'turn-1', userText, answer }],
    });
  const rows = () => view(wb.page, 'Threads').locator('.monaco-list-row');
  const row = (text: string) => rows().filter({ hasText: text });

  it('runs a turn in each of two tabs at once, each title showing its state; Reload Window restores both', async () => {
    seed('Alpha question', 'Alpha first answer.');
    seed('Beta question', 'Beta first answer.');
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);

    // A click opens the thread where the setting says: an editor tab, not the Conversation view.
    await row('Alpha question').click();
    const alpha = await panelWith(wb.page, 'Alpha question');
    assert.equal(await conversation(wb.page).locator('.tl-header').count(), 0, 'the view shows no thread');
    // The row's Open in Editor button, with Alt held: Open to the Side.
    const beta = row('Beta question');
    await beta.hover();
    await beta.locator('.actions .action-label[aria-label^="Open in Editor"]').hover();
    await wb.page.keyboard.down('Alt');
    await beta.locator('.actions .action-label[aria-label^="Open to the Side"]').click();
    await wb.page.keyboard.up('Alt');
    const betaFrame = await panelWith(wb.page, 'Beta question');
    await until(async () => (await panelFrames(wb.page).count()) === 2, 15_000);
    const [left, right] = await Promise.all([alpha, betaFrame].map((f) => f.locator('body').boundingBox()));
    assert.ok(left && right && left.x + left.width <= right.x + 1, 'Beta opened beside Alpha');

    // Alpha streams slowly; Beta asks to run a command: both turns are under way at once.
    // Long enough (about 15 s) to outlast Beta's request, its card and the screenshots.
    const paragraphs = Array.from({ length: 50 }, (_, i) => `Alpha streams part ${i + 1}.\n\n`);
    model.script({ output: [{ text: paragraphs }], eventDelayMs: 300 });
    model.script(...execCall({ cmd: 'echo beta && touch beta.txt' }, 'Beta made the file.'));
    // Alpha's request takes the first answer in the queue before Beta asks.
    const asked = () => model.requests.filter((r) => r.responseIndex >= 0).length;
    const before = asked();
    await send(alpha, 'Alpha, write at length');
    await until(() => asked() > before, 30_000);
    await send(betaFrame, 'Beta, make a file');
    await betaFrame.locator('.tl-prompt').waitFor({ timeout: 30_000 });
    await editorTab(wb.page, /^Running · Alpha question/).waitFor({ timeout: 15_000 });
    await editorTab(wb.page, /^Waiting · Beta question/).waitFor({ timeout: 15_000 });
    await alpha.getByText('Alpha streams part 3.').waitFor({ timeout: 30_000 });
    for (const kind of themes) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `placement-two-tabs-${kind}`);
    }

    await betaFrame
      .locator('.tl-prompt')
      .getByRole('button', { name: /^(Run|Accept|Allow)/ })
      .first()
      .click();
    await betaFrame.getByText('Beta made the file.').waitFor({ timeout: 30_000 });
    await editorTab(wb.page, /^Beta question/).waitFor({ timeout: 15_000 });
    await alpha.getByText('Alpha streams part 50.').waitFor({ timeout: 60_000 });
    await editorTab(wb.page, /^Alpha question/).waitFor({ timeout: 15_000 });

    await runCommand(wb.page, 'Developer: Reload Window');
    await wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    await panelWith(wb.page, 'Alpha streams part 50.');
    await panelWith(wb.page, 'Beta made the file.');
    assert.deepEqual((await tabTitles(wb.page)).sort(), ['Alpha question', 'Beta question']);
    await screenshot(wb.page, 'placement-two-tabs-after-reload');

    // Ctrl+Enter in the tree opens the selected thread to the side, whatever the setting says.
    await runCommand(wb.page, 'View: Close All Editors');
    await until(async () => (await panelFrames(wb.page).count()) === 0, 15_000);
    if (!(await view(wb.page, 'Threads').isVisible())) await activityBarItem(wb.page, 'Threadline').click();
    // Ctrl+click selects without opening (the tree selects several); Ctrl+Enter opens the selected.
    await rows().filter({ hasText: 'Archived' }).click();
    await row('Beta question').click({ modifiers: ['Control'] });
    const title = 'Beta question';
    await wb.page.waitForTimeout(500);
    assert.equal(await panelFrames(wb.page).count(), 0, 'a Ctrl+click opens nothing');
    await wb.page.keyboard.press('Control+Enter');
    await panelWith(wb.page, title);
    assert.deepEqual(await tabTitles(wb.page), [title]);
  });
});

describe('the first-run side bar (installed .vsix)', function () {
  this.timeout(180_000);
  const wb = useWorkbench();
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'workspace-write' });
  before(() => wb.server.addUserSettings({ 'threadline.conversation.openIn': 'editor' }));

  it('gives the Conversation view most of its height; a recent thread picked there opens as the setting says', async () => {
    writeRollout(wb.home, { cwd: wb.workspace, turns: [{ id: 'turn-1', userText: 'Gamma question' }] });
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);
    const start = conversation(wb.page);
    await start.getByText('Gamma question').waitFor({ timeout: 30_000 });
    const [threads, talk] = await Promise.all(
      ['Threads', 'Conversation'].map((name) => view(wb.page, name).boundingBox()),
    );
    assert.ok(threads && talk);
    assert.ok(
      talk.height >= 2.5 * threads.height,
      `Threads ${threads.height}px, Conversation ${talk.height}px`,
    );
    await screenshot(wb.page, 'placement-first-run-side-bar');

    await start.getByText('Gamma question').click();
    await panelWith(wb.page, 'Gamma question');
    assert.equal(await start.locator('.tl-header').count(), 0, 'the side bar view stays on its start page');
  });

  it('moves the Conversation view to the secondary side bar on request, where it answers and stays', async () => {
    model.script({ output: [{ text: 'Moved and still here.' }] });
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);
    await conversation(wb.page).getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 30_000 });
    await runCommand(wb.page, 'Threadline: Move Conversation View…');
    await pickQuickInput(wb.page, 'New Secondary Side Bar Entry');
    const frame = conversation(wb.page, 'only');
    await send(frame, 'Are you on the right?');
    await frame.getByText('Moved and still here.').waitFor({ timeout: 30_000 });
    const auxiliaryBar = wb.page.locator('.part.auxiliarybar');
    assert.ok(await inside(viewFrames(wb.page), auxiliaryBar), 'drawn in the secondary side bar');

    // VS Code keeps the view where it was moved.
    await runCommand(wb.page, 'Developer: Reload Window');
    await wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    await runCommand(wb.page, 'Threadline: Focus Composer');
    await conversation(wb.page, 'only').locator('.tl-composer').waitFor({ timeout: 60_000 });
    assert.ok(await inside(viewFrames(wb.page), auxiliaryBar), 'still in the secondary side bar');
    assert.equal(await view(wb.page, 'Conversation').count(), 0, 'not back under Threads');
  });
});

describe('the Conversation view in the secondary side bar (installed .vsix)', function () {
  this.timeout(180_000);
  const wb = useWorkbench();
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'never', sandbox: 'workspace-write' });
  before(() => wb.server.addUserSettings({ 'threadline.conversation.openIn': 'secondarySideBar' }));

  it('leaves the side bar to Threads and answers a prompt sent from the secondary side bar', async () => {
    model.script({ output: [{ text: 'Answered from the right.' }] });
    const frame = await newThread(wb.page);
    await send(frame, 'Where are you?');
    await frame.getByText('Answered from the right.').waitFor({ timeout: 30_000 });

    const auxiliaryBar = wb.page.locator('.part.auxiliarybar');
    assert.ok(
      await inside(viewFrames(wb.page), auxiliaryBar),
      'the conversation is drawn in the secondary side bar',
    );
    assert.equal(await view(wb.page, 'Conversation').count(), 0, 'no Conversation view under Threads');
    await view(wb.page, 'Threads').locator('.monaco-list-row', { hasText: 'Where are you?' }).waitFor();
    for (const kind of themes) {
      await setColorTheme(wb.page, kind);
      await screenshot(wb.page, `placement-secondary-side-bar-${kind}`);
    }
  });
});
