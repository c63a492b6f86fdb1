// The composer's toolbar in the installed .vsix at the widths people give the side bar: at 250, 300, 400
// and 700 px, in the light, dark and high-contrast themes, every control (model, effort, approvals,
// images) is either whole in the row or in the overflow menu; nothing is cut (bounding boxes inside
// the composer, no select's text clipped), and Send is always there. Its policy panel offers the
// server's permission profiles, and choosing one sets the approvals and sandbox the next turn runs with.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { useModelServer } from '../fixtures/modelServer/server';
import { execCall } from '../support/commands';
import { resultsPath } from '../support/harness/paths';
import { useWorkbench } from '../support/harness/uiFixture';
import { screenshot, setColorTheme, themes, type ThemeKind } from '../support/harness/workbench';
import { until } from '../support/until';
import { conversation, newThread, send, useScriptedModel } from './conversationPage';

const widths = [250, 300, 400, 700];
type Box = { x: number; y: number; width: number; height: number };

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

/** Drags the side bar's edge until the conversation view's page is `width` px wide. */
async function sideBarWidth(page: Page, width: number): Promise<void> {
  const frame = page.locator('iframe.webview[src*="purpose=webviewView"]').first();
  for (let attempt = 0; attempt < 4; attempt++) {
    const now = (await frame.boundingBox())!.width;
    if (Math.abs(now - width) <= 1) return;
    const bar = (await page.locator('.part.sidebar').boundingBox())!;
    const edge = bar.x + bar.width;
    const sashes = await page.locator('.monaco-sash.vertical').all();
    let sash: Box | undefined;
    for (const candidate of sashes) {
      const box = await candidate.boundingBox();
      if (box && Math.abs(box.x + box.width / 2 - edge) <= 4) sash = box;
    }
    assert.ok(sash, 'the side bar has a sash on its edge');
    const x = sash.x + sash.width / 2;
    const y = sash.y + sash.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + (width - now) / 2, y, { steps: 4 });
    await page.mouse.move(x + (width - now), y, { steps: 4 });
    await page.mouse.up();
  }
  const final = (await frame.boundingBox())!.width;
  assert.ok(Math.abs(final - width) <= 1, `the view is ${final} px wide, not ${width}`);
}

/** Every control is whole in the row or listed in the overflow menu, which is whole in the composer. */
async function checkToolbar(frame: FrameLocator, label: string): Promise<string[]> {
  const composer = (await frame.locator('.tl-composer').boundingBox())!;
  const row = (await frame.locator('.tl-toolbar-row').boundingBox())!;
  // Send (Steer while the turn runs) and Stop stay at the end of the bar, whole.
  for (const name of [/^(Send|Steer)$/, /^Stop$/]) {
    const button = frame.getByRole('button', { name });
    assert.ok(inside((await button.boundingBox())!, composer), `${label}: ${name} is whole`);
  }
  const inRow = await frame
    .locator('.tl-toolbar-row [data-control]')
    .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.control!));
  for (const id of inRow) {
    const box = (await frame.locator(`.tl-toolbar-row [data-control="${id}"]`).boundingBox())!;
    assert.ok(inside(box, row), `${label}: ${id} is whole in the row (${JSON.stringify({ box, row })})`);
  }
  // No select shows its text cut with an ellipsis.
  const clipped = await frame.locator('.tl-composer vscode-single-select').evaluateAll((els) =>
    els.flatMap((el) => {
      const text = el.shadowRoot?.querySelector<HTMLElement>('.select-face .text');
      return text && text.scrollWidth > text.clientWidth + 1 ? [el.getAttribute('aria-label')] : [];
    }),
  );
  assert.deepEqual(clipped, [], `${label}: no select's text is cut`);
  const more = frame.getByRole('button', { name: 'More options' });
  let inMenu: string[] = [];
  if (await more.isVisible()) {
    assert.ok(inside((await more.boundingBox())!, composer), `${label}: the overflow button is whole`);
    if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
    const menu = frame.getByRole('group', { name: 'More options' });
    await menu.waitFor();
    const opened = (await frame.locator('.tl-composer').boundingBox())!;
    assert.ok(inside((await menu.boundingBox())!, opened), `${label}: the overflow menu is whole`);
    for (const control of await menu.locator('.tl-toolbar-menu-row > :last-child').all())
      assert.ok(inside((await control.boundingBox())!, opened), `${label}: a menu control is whole`);
    inMenu = await menu
      .locator('[data-control]')
      .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.control!));
  }
  const all = [...inRow, ...inMenu];
  for (const id of ['model', 'policy', 'attach'])
    assert.ok(all.includes(id), `${label}: ${id} is in the row or the menu (${all.join(', ')})`);
  assert.equal(new Set(all).size, all.length, `${label}: each control shows once`);
  return inMenu;
}

describe('the composer toolbar at every width (installed .vsix)', function () {
  this.timeout(300_000);
  const wb = useWorkbench({ 'README.md': '# Demo\n' });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'untrusted', sandbox: 'workspace-write' });

  it('shows every control whole in the row or in the overflow menu at 250, 300, 400 and 700 px, in every theme', async () => {
    // A turn waits on an approval: Stop shows next to Send, the toolbar's row has the least room.
    model.script(...execCall({ cmd: 'touch waiting.txt' }, 'Done.'));
    await newThread(wb.page);
    const frame = conversation(wb.page);
    await send(frame, 'Make a file');
    await frame.locator('.tl-prompt').waitFor({ timeout: 30_000 });
    await frame.getByRole('button', { name: 'Stop' }).waitFor();
    await frame.locator('.tl-toolbar-row [data-control="model"], .tl-toolbar-menu').first().waitFor();
    const moved: Record<string, string[]> = {};
    for (const kind of Object.keys(themes) as ThemeKind[]) {
      await setColorTheme(wb.page, kind);
      for (const width of widths) {
        await sideBarWidth(wb.page, width);
        // The toolbar settles after the resize (a ResizeObserver measures it).
        await wb.page.waitForTimeout(300);
        const more = frame.getByRole('button', { name: 'More options' });
        if ((await more.isVisible()) && (await more.getAttribute('aria-expanded')) === 'true')
          await more.click();
        await frame
          .locator('.tl-composer')
          .screenshot({ path: resultsPath('ui', `composer-toolbar-${width}-${kind}.png`) });
        moved[`${width}`] = await checkToolbar(frame, `${width} px, ${kind}`);
        if (moved[`${width}`]!.length > 0)
          await frame
            .locator('.tl-composer')
            .screenshot({ path: resultsPath('ui', `composer-toolbar-${width}-${kind}-menu.png`) });
      }
    }
    // Wide, everything is in the row; at 250 px with Stop showing, something had to move.
    assert.deepEqual(moved['700'], []);
    assert.ok(moved['250']!.length > 0, 'at 250 px the overflow menu holds something');
    assert.deepEqual(wb.browser.consoleErrors, []);
  });

  it('offers the permission profiles in the policy panel; choosing one sets approvals and sandbox', async () => {
    model.script({ output: [{ text: 'Looked.' }] });
    const frame = await newThread(wb.page);
    const more = frame.getByRole('button', { name: 'More options' });
    if ((await more.isVisible()) && (await more.getAttribute('aria-expanded')) !== 'true') await more.click();
    await frame.getByRole('button', { name: 'Approvals and sandbox' }).click();
    const profile = frame.locator('vscode-single-select[aria-label="Permission profile"]');
    const valueOf = (label: string) =>
      frame
        .locator(`vscode-single-select[aria-label="${label}"]`)
        .evaluate((el) => (el as HTMLSelectElement).value);
    // untrusted with workspace-write (the suite's config) is none of the profiles.
    assert.deepEqual(
      (await profile.locator('vscode-option').allTextContents()).map((t) => t.trim()),
      ['Custom', 'Read only', 'Workspace', 'Full access'],
    );
    await profile.click();
    await profile.getByRole('option', { name: 'Read only' }).click();
    await until(async () => (await valueOf('Sandbox')) === 'read-only');
    assert.equal(await valueOf('Approval policy'), 'on-request');
    assert.equal(await valueOf('Permission profile'), ':read-only');
    await screenshot(wb.page, 'composer-permission-profile');

    await send(frame, 'Only look');
    await frame.getByText('Looked.').waitFor({ timeout: 30_000 });
    if (!wb.codex) {
      // The turn ran with the profile's pair (turn/start sends the sandbox as a policy, which wins over
      // the thread's mode): the thread's saved settings say so.
      const folder = join(wb.serverHome, 'thread-settings');
      const saved = readdirSync(folder).map(
        (name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as Record<string, unknown>,
      );
      assert.ok(
        saved.some(
          (s) =>
            s.approvalPolicy === 'on-request' &&
            (s.sandboxPolicy as { type?: string } | null)?.type === 'readOnly',
        ),
        JSON.stringify(saved),
      );
    }
    assert.deepEqual(wb.browser.consoleErrors, []);
  });
});
