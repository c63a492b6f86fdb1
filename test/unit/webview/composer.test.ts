// The composer in a jsdom page: Enter sends and Shift+Enter does not, steering and Stop while a turn
// runs, the draft kept per thread in the saved state, `@` mentions from the host's ranked files.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import { n, deltas, snapshot, threadId, turn, userMessage } from './conversationFixtures';
import { useAppDom } from './dom';
import type { Page as PageType } from './page';
import type { SandboxMode } from '../../../server/protocol/enums';
import type { ThreadSnapshot } from '../../../webview/messages';

describe('webview composer (jsdom)', () => {
  const app = useAppDom();

  async function open(status: 'completed' | 'inProgress' = 'completed', saved = {}) {
    const page = new app.Page(
      {
        listModels: () => ({ models: [] }),
        startTurn: () => ({ turnId: 't2' }),
        steerTurn: () => ({ turnId: 't1' }),
        interruptTurn: () => ({}),
        suggestMentions: ({ query }: { query: string }) => ({
          suggestions: ['src/main.ts', 'src/other.ts']
            .filter((p) => p.includes(query))
            .map((path) => ({ kind: 'file', label: path, icon: 'file', insert: path })),
        }),
      },
      saved,
    );
    await page.render(createElement(app.App));
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', [userMessage('u1', 'hi')], status)]),
      context: { kind: 'sidebar', restricted: false },
    });
    return page;
  }

  const input = (page: PageType) => page.find('textarea') as HTMLTextAreaElement;

  async function type(page: PageType, text: string) {
    const el = input(page);
    await page.act(() => {
      // React tracks the value through the native setter; setting it this way fires onChange as typing does.
      const setter = Object.getOwnPropertyDescriptor(window.HTMLTextAreaElement.prototype, 'value')!.set!;
      setter.call(el, text);
      el.setSelectionRange(text.length, text.length);
      el.dispatchEvent(new window.Event('input', { bubbles: true }));
    });
  }

  const key = (page: PageType, init: KeyboardEventInit) =>
    page.act(() => {
      input(page).dispatchEvent(
        new window.KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }),
      );
    });

  /** A page showing a thread with these settings, its policy panel open. */
  async function policyPanel(settings: Partial<ThreadSnapshot['settings']>) {
    const page = new app.Page({ listModels: () => ({ models: [] }) });
    await page.render(createElement(app.App));
    const shown = snapshot([turn('t1', [userMessage('u1', 'hi')])]);
    Object.assign(shown.settings, settings);
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: shown,
      context: { kind: 'sidebar', restricted: false },
    });
    await page.until(() => page.all('button[aria-label="Approvals and sandbox"]').length > 0);
    await page.act(() =>
      (page.find('button[aria-label="Approvals and sandbox"]') as HTMLButtonElement).click(),
    );
    return { page, shown };
  }

  it('sends on Enter, adds a line on Shift+Enter, and keeps the draft per thread', async () => {
    const page = await open();
    await type(page, 'Fix the bug');
    assert.deepEqual((page.saved as { drafts: Record<string, string> }).drafts, {
      [threadId]: 'Fix the bug',
    });
    await key(page, { key: 'Enter', shiftKey: true });
    assert.deepEqual(page.requests('startTurn'), []);
    await key(page, { key: 'Enter' });
    assert.deepEqual(page.requests('startTurn'), [
      { threadId, input: [{ type: 'text', text: 'Fix the bug' }], overrides: {} },
    ]);
    assert.equal(input(page).value, '');
    await page.unmount();
  });

  it('greys out what requirements.toml forbids with a thread open too', async () => {
    const { page } = await policyPanel({
      forbidden: { 'danger-full-access': 'Not allowed by requirements.toml' },
    });
    const options = page.all('[aria-label="Sandbox"] vscode-option');
    assert.deepEqual(
      options.map((o) => o.textContent),
      ['Read only', 'Workspace write', 'Full access (not allowed)'],
    );
    await page.unmount();
  });

  it('offers the permission profiles, with Custom when the policy and sandbox make up none', async () => {
    const profile = (
      id: string,
      label: string,
      approvalPolicy: 'on-request' | 'never',
      sandbox: SandboxMode,
    ) => ({
      id,
      label,
      description: `${label}: what it lets the agent do`,
      approvalPolicy,
      sandbox,
      allowed: id !== ':danger-full-access',
    });
    const profiles = [
      profile(':read-only', 'Read only', 'on-request', 'read-only'),
      profile(':workspace', 'Workspace', 'on-request', 'workspace-write'),
      profile(':danger-full-access', 'Full access', 'never', 'danger-full-access'),
    ];
    const { page, shown } = await policyPanel({ approvalPolicy: 'untrusted', profiles });
    // (Whether a choice is disabled is the real browser's to show: test/ui/settings.test.ts.)
    const choices = () =>
      page.all('[aria-label="Permission profile"] vscode-option').map((o) => o.textContent);
    // untrusted + workspace-write is no profile.
    assert.deepEqual(choices(), ['Custom', 'Read only', 'Workspace', 'Full access (not allowed)']);
    // Choosing one is the real browser's (test/ui/composerToolbar.test.ts); a thread that runs with a
    // profile's pair shows that profile, without Custom.
    const asProfile = { ...shown, settings: { ...shown.settings, approvalPolicy: 'on-request' as const } };
    await page.receive({
      type: 'snapshot',
      seq: 1,
      snapshot: asProfile,
      context: { kind: 'sidebar', restricted: false },
    });
    assert.deepEqual(choices(), ['Read only', 'Workspace', 'Full access (not allowed)']);
    await page.unmount();
  });

  it('restores a saved draft, and does not send an empty one', async () => {
    const page = await open('completed', { drafts: { [threadId]: 'half a thought' } });
    assert.equal(input(page).value, 'half a thought');
    await type(page, '   ');
    await key(page, { key: 'Enter' });
    assert.deepEqual(page.requests('startTurn'), []);
    await page.unmount();
  });

  it('steers a running turn and stops it', async () => {
    const page = await open('inProgress');
    assert.equal(input(page).getAttribute('aria-label'), 'Steer the running turn');
    await type(page, 'also add tests');
    await key(page, { key: 'Enter' });
    assert.deepEqual(page.requests('steerTurn'), [
      { threadId, turnId: 't1', input: [{ type: 'text', text: 'also add tests' }] },
    ]);
    const stop = page.all('button').find((b) => b.textContent?.includes('Stop'));
    assert.ok(stop, 'a Stop button while the turn runs');
    await page.act(() => stop.click());
    assert.deepEqual(page.requests('interruptTurn'), [{ threadId, turnId: 't1' }]);

    await page.receive(deltas(1, [n('turn/completed', { turn: turn('t1', [], 'interrupted') })])[0]);
    await page.frame();
    assert.equal(
      page.all('button').some((b) => b.textContent?.includes('Stop')),
      false,
    );
    await page.unmount();
  });

  it('lists files for an @ mention and inserts the chosen path', async () => {
    const page = await open();
    await type(page, 'look at @mai');
    await page.act(() => {
      input(page).dispatchEvent(new window.KeyboardEvent('keyup', { bubbles: true, key: 'i' }));
    });
    await page.until(() => page.all('[role="option"]').length > 0);
    assert.deepEqual(page.requests('suggestMentions').at(-1), { query: 'mai' });
    assert.deepEqual(
      page.all('[role="option"]').map((o) => o.textContent?.trim()),
      ['src/main.ts'],
    );
    // The characters the query matched are highlighted.
    assert.deepEqual(
      page.all('[role="option"] b').map((b) => b.textContent),
      ['mai'],
    );
    await key(page, { key: 'Enter' });
    assert.equal(input(page).value, 'look at src/main.ts ');
    assert.deepEqual(page.requests('startTurn'), [], 'Enter chose the file, it did not send');
    await page.unmount();
  });
});
