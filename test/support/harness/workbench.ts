// What every UI test does in the VS Code workbench, by what a user sees: accessible names, the command
// palette, the color theme. Kept to Playwright locators so failures name the element that was missing.
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { resultsPath } from './paths';

export async function openWorkbench(page: Page, url: string): Promise<void> {
  await page.goto(url, { timeout: 30_000 });
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
  // Settled enough to take input: the folder is listed and the side bar has stopped loading.
  await page
    .locator('.part.sidebar .explorer-folders-view .monaco-list-row')
    .first()
    .waitFor({ timeout: 30_000 });
  await sideBarIdle(page);
}

/** The activity-bar entry of a view container (click it to open the container). */
export function activityBarItem(page: Page, title: string): Locator {
  // The item's badge, when present, would intercept a click on the inner label: target the whole item.
  return page.locator('.part.activitybar li.action-item').filter({
    has: page.locator(`a.action-label[aria-label^="${title}"]`),
  });
}

/** A view (pane) in the side bar, by the name in its header. */
export function view(page: Page, name: string): Locator {
  return page.locator('.part.sidebar .pane').filter({
    has: page.locator('.pane-header', {
      has: page.locator('h3.title', { hasText: new RegExp(`^${name}$`, 'i') }),
    }),
  });
}

const quickInput = (page: Page) => page.locator('.quick-input-widget input');
const quickInputRow = (page: Page, text: string) =>
  page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();

/** Runs a command from the command palette by its title, as a user does. */
export async function runCommand(page: Page, title: string): Promise<void> {
  // Right after load the workbench may not handle keys yet, and commands of extensions appear once the
  // extension host has started: reopen the palette until the command is listed.
  for (let attempt = 1; ; attempt++) {
    if (!(await quickInput(page).isVisible())) await page.keyboard.press('F1');
    const opened = await quickInput(page)
      .waitFor({ timeout: 2_000 })
      .then(
        () => true,
        () => false,
      );
    // Under load the palette can close again between opening and typing (focus moves as the workbench
    // settles): a fill that cannot happen soon counts as a failed attempt, not a 20 s hang.
    const typed =
      opened &&
      (await quickInput(page)
        .fill(`>${title}`, { timeout: 3_000 })
        .then(
          () => true,
          () => false,
        ));
    if (typed) {
      const listed = await quickInputRow(page, title)
        .waitFor({ timeout: 3_000 })
        .then(
          () => true,
          () => false,
        );
      if (listed) {
        await quickInputRow(page, title).click();
        return;
      }
      await page.keyboard.press('Escape');
    }
    if (attempt === 8) throw new Error(`The command palette did not list "${title}"`);
  }
}

/** Picks an item in the quick pick that is open (e.g. after a command asked for a choice). */
export async function pickQuickInput(page: Page, text: string): Promise<void> {
  await quickInput(page).fill(text); // the list renders only the rows in view: filter first
  await quickInputRow(page, text).click();
  await quickInput(page).waitFor({ state: 'hidden' });
}

/** A notification toast; waitFor() it to see it fully faded in (ready for a screenshot). */
export function notification(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-fade-in-done', {
    hasText: text,
  });
}

/** The content frame of an extension's webview (publisher.name). */
export function webviewFrame(page: Page, extensionId: string): FrameLocator {
  return page
    .frameLocator(`iframe.webview[src*="extensionId=${extensionId}"]`)
    .frameLocator('iframe#active-frame');
}

export const themes = {
  light: { label: 'Light 2026', workbenchClass: 'vs' },
  dark: { label: 'Dark 2026', workbenchClass: 'vs-dark' },
  'high-contrast': { label: 'Dark High Contrast', workbenchClass: 'hc-black' },
} as const;
export type ThemeKind = keyof typeof themes;

/** Picks a color theme the way a user does (the change persists in user settings) and waits until it shows. */
export async function setColorTheme(page: Page, kind: ThemeKind): Promise<void> {
  const { label, workbenchClass } = themes[kind];
  await runCommand(page, 'Preferences: Color Theme');
  await pickQuickInput(page, label);
  await page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ timeout: 15_000 });
}

/** Waits until the side bar has no running progress bar (e.g. a view still waiting for its extension). */
export async function sideBarIdle(page: Page): Promise<void> {
  await page.locator('.part.sidebar .monaco-progress-container.active').first().waitFor({ state: 'hidden' });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const file = resultsPath('ui', `${name}.png`);
  await page.mouse.move(1, 1); // no hover tooltip from the last click in the picture
  await page.screenshot({ path: file, timeout: 15_000 });
  return file;
}
