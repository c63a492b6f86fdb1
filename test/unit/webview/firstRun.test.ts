// The first run in a jsdom page: with no thread open the view is a composer and the recent threads;
// a provider that cannot take a turn gets a setup card before anything is sent, the draft stays and is
// sent once set up; a failed turn's error stands under its prompt.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import type { SetupAction, SetupStatus, StartInfo } from '../../../webview/messages';
import { deltas, n, snapshot, turn, userMessage } from './conversationFixtures';
import { useAppDom } from './dom';
import type { Page as PageType } from './page';

const noKey: SetupStatus = {
  ready: false,
  provider: { id: 'openai', name: 'OpenAI' },
  problem: 'noKey',
  local: [{ id: 'ollama', name: 'Ollama' }],
};

const start: StartInfo = {
  recent: [
    { id: 'thr_old', label: 'Fix the flaky login test', updatedAt: Math.floor(Date.now() / 1000) - 7200 },
  ],
  defaults: { model: '', effort: null, approvalPolicy: '', sandbox: '' },
};

const models = [
  {
    id: 'gpt-test',
    model: 'gpt-test',
    displayName: 'GPT Test',
    description: '',
    hidden: false,
    isDefault: true,
    supportedReasoningEfforts: [],
    defaultReasoningEffort: 'medium',
    inputModalities: ['text'],
    upgrade: null,
  },
];

describe('webview first run (jsdom)', () => {
  const app = useAppDom();

  /** The view as it opens with no thread; `setup` answers checkSetup, then runSetup in turn. */
  async function openEmpty(setup: SetupStatus[] = [{ ready: true }]) {
    const answers = [...setup];
    const next = () => answers.shift() ?? { ready: true };
    const page = new app.Page({
      listModels: () => ({ models }),
      checkSetup: next,
      runSetup: (_: SetupAction) => next(),
      startThread: () => ({ threadId: 'thr_new' }),
    });
    await page.render(createElement(app.App));
    return page;
  }

  const input = (page: PageType) => page.find('textarea') as HTMLTextAreaElement;

  async function type(page: PageType, text: string) {
    const el = input(page);
    await page.act(() => {
      const setter = Object.getOwnPropertyDescriptor(window.HTMLTextAreaElement.prototype, 'value')!.set!;
      setter.call(el, text);
      el.dispatchEvent(new window.Event('input', { bubbles: true }));
    });
  }

  const enter = (page: PageType) =>
    page.act(() => {
      input(page).dispatchEvent(
        new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }),
      );
    });

  const button = (page: PageType, label: RegExp) => {
    const found = page.all('button').find((b) => label.test(b.textContent ?? ''));
    if (!found) throw new Error(`no button ${label} in:\n${page.container.innerHTML.slice(0, 2000)}`);
    return found;
  };

  it('opens on a composer at once, before the host has said anything', async () => {
    const page = await openEmpty();
    assert.ok(input(page), 'the composer is there with no thread and no host message yet');
    assert.equal(page.all('.tl-recent').length, 0);
    await page.unmount();
  });

  it("lists this workspace's recent threads, opens one, and shows the model picker", async () => {
    const page = await openEmpty();
    await page.receive({ type: 'empty', context: { kind: 'sidebar', restricted: false }, start });
    await page.until(() => page.all('vscode-single-select').length > 0);
    const recent = page.all('.tl-recent-thread');
    assert.equal(recent.length, 1);
    assert.match(recent[0]!.textContent ?? '', /Fix the flaky login test.*2h/);
    await page.act(() => recent[0]!.click());
    assert.deepEqual(page.posted.at(-1), { type: 'openThread', threadId: 'thr_old' });
    // The provider's default model, since the settings name none; no policy the settings do not know.
    assert.equal(page.find('vscode-single-select').getAttribute('aria-label'), 'Model');
    assert.equal(page.all('[aria-label="Approvals and sandbox"]').length, 0);
    await page.unmount();
  });

  it("offers the server's effective policy, greying out what requirements.toml forbids", async () => {
    const page = await openEmpty();
    const reason = 'Not allowed by requirements.toml (allowed: untrusted, on-request)';
    const defaults = {
      ...start.defaults,
      approvalPolicy: 'on-request' as const,
      sandbox: 'read-only' as const,
    };
    await page.receive({
      type: 'empty',
      context: { kind: 'sidebar', restricted: false },
      start: { ...start, defaults: { ...defaults, forbidden: { never: reason } } },
    });
    await page.until(() => page.all('[aria-label="Approvals and sandbox"]').length > 0);
    await page.act(() => (page.find('[aria-label="Approvals and sandbox"]') as HTMLButtonElement).click());
    const options = page.all('[aria-label="Approval policy"] vscode-option');
    const labels = options.map((o) => o.textContent);
    assert.deepEqual(labels, [
      'Ask for untrusted commands',
      'Ask when the agent requests',
      'Never ask (not allowed)',
    ]);
    // The shield is offered because the host named the effective policy (from config/read).
    assert.match(
      page.find('button[aria-label="Approvals and sandbox"]').title,
      /Ask when the agent requests/,
    );
    await page.unmount();
  });

  it('starts a new thread with the first message when the provider is ready', async () => {
    const page = await openEmpty();
    await page.receive({ type: 'empty', context: { kind: 'sidebar', restricted: false }, start });
    await type(page, 'Explain the build');
    await enter(page);
    await page.until(() => page.requests('startThread').length === 1);
    assert.deepEqual(page.requests('checkSetup'), [{}]);
    assert.deepEqual(page.requests('startThread'), [
      { input: [{ type: 'text', text: 'Explain the build' }], overrides: {} },
    ]);
    assert.equal(input(page).value, '');
    await page.unmount();
  });

  it('shows the setup card instead of sending, keeps the draft, and sends it once signed in', async () => {
    const page = await openEmpty([noKey, { ready: true }]);
    await page.receive({ type: 'empty', context: { kind: 'sidebar', restricted: false }, start });
    await type(page, 'Add a --json flag');
    await enter(page);
    await page.until(() => page.all('.tl-setup').length === 1);
    const card = page.find('.tl-setup');
    assert.match(card.textContent ?? '', /OpenAI needs an API key/);
    assert.match(card.textContent ?? '', /Nothing was sent/);
    const labels = page.all('.tl-setup-actions button').map((b) => b.textContent?.trim());
    assert.deepEqual(labels, [
      'Sign in with an API key',
      'Use Ollama on this machine',
      'Choose another provider',
    ]);
    assert.equal(document.activeElement, button(page, /Sign in with an API key/), 'the way on has the focus');
    assert.deepEqual(page.requests('startThread'), [], 'nothing was sent');
    assert.equal(input(page).value, 'Add a --json flag', 'the draft stays');
    assert.deepEqual((page.saved as { drafts: Record<string, string> }).drafts, { '': 'Add a --json flag' });

    await page.act(() => button(page, /Sign in with an API key/).click());
    await page.until(() => page.requests('startThread').length === 1);
    assert.deepEqual(page.requests('runSetup'), [{ action: 'signIn', providerId: 'openai' }]);
    assert.deepEqual(page.requests('startThread'), [
      { input: [{ type: 'text', text: 'Add a --json flag' }], overrides: {} },
    ]);
    assert.equal(page.all('.tl-setup').length, 0);
    assert.equal(input(page).value, '');
    await page.unmount();
  });

  it('keeps the card while setup is not done, and offers a check again for a local server', async () => {
    const notRunning: SetupStatus = {
      ready: false,
      provider: { id: 'ollama', name: 'Ollama' },
      problem: 'notRunning',
      local: [],
    };
    const page = await openEmpty([notRunning, notRunning]);
    await type(page, 'hi');
    await enter(page);
    await page.until(() => page.all('.tl-setup').length === 1);
    assert.match(page.find('.tl-setup').textContent ?? '', /Ollama is not answering/);
    assert.equal(page.all('.tl-setup button').filter((b) => /Sign in/.test(b.textContent ?? '')).length, 0);
    assert.equal(page.all('.tl-setup button').filter((b) => /Use /.test(b.textContent ?? '')).length, 0);
    await page.act(() => button(page, /Check again/).click());
    await page.until(() => page.requests('checkSetup').length === 2);
    await page.until(() => !button(page, /Check again/).hasAttribute('disabled'));
    assert.equal(page.all('.tl-setup').length, 1, 'still not running: the card stays');
    assert.deepEqual(page.requests('startThread'), []);
    await page.act(() => page.find('[aria-label="Dismiss"]').click());
    assert.equal(page.all('.tl-setup').length, 0);
    assert.equal(input(page).value, 'hi');
    await page.unmount();
  });

  it('takes the focus into the composer when asked (the Focus Composer keybinding)', async () => {
    const page = await openEmpty();
    assert.notEqual(document.activeElement, input(page));
    await page.receive({ type: 'focusComposer' });
    assert.equal(document.activeElement, input(page));
    await page.unmount();
  });

  it("puts a failed turn's error under its prompt, with a sign-in for a missing key", async () => {
    const page = await openEmpty();
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', [userMessage('u1', 'What does main.ts do?')], 'inProgress')]),
      context: { kind: 'sidebar', restricted: false },
    });
    const error = { message: 'No API key for OpenAI, so nothing was sent', codexErrorInfo: 'apiKeyMissing' };
    for (const m of deltas(1, [
      n('error', { turnId: 't1', error, willRetry: false }),
      n('turn/completed', { turn: { ...turn('t1', [], 'failed'), error } }),
    ]))
      await page.receive(m);
    await page.frame();
    await page.until(() => page.all('.tl-turn-error').length === 1);
    const prompt = page.find('.tl-user');
    const shown = page.find('.tl-turn-error');
    assert.ok(
      prompt.compareDocumentPosition(shown) & window.Node.DOCUMENT_POSITION_FOLLOWING,
      'the error comes after the prompt',
    );
    assert.match(shown.textContent ?? '', /No API key is set for this provider, so nothing was sent/);
    assert.doesNotMatch(shown.textContent ?? '', /rejected/);
    await page.act(() => button(page, /Sign in with an API key/).click());
    assert.deepEqual(page.requests('runSetup'), [{ action: 'signIn', providerId: 'openai' }]);
    await page.unmount();
  });
});
