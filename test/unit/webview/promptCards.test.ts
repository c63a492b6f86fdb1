// Prompt cards in a jsdom page: each kind renders what the request says and sends the schema's exact
// answer shape; cards sit above the composer, queue, take shortcuts only while they have the focus,
// and a card that arrives leaves the composer's draft and focus alone.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import type { PromptView, WebviewMessage } from '../../../webview/messages';
import { deltas, n, snapshot, threadId, turn, userMessage } from './conversationFixtures';
import { useAppDom } from './dom';
import type { Page as PageType } from './page';
import { commandPrompt, filePrompt, questionPrompt } from './promptFixtures';

describe('webview prompt cards (jsdom)', () => {
  const app = useAppDom();

  const fileChange = {
    type: 'fileChange',
    id: 'fc1',
    status: 'inProgress',
    changes: [
      {
        path: '/work/demo/src/a.ts',
        kind: { type: 'update', move_path: null },
        diff: '@@ -1 +1,2 @@\n-old\n+new\n+more',
      },
      { path: '/work/demo/notes.txt', kind: { type: 'add' }, diff: 'one\ntwo\nthree\n' },
    ],
  };

  async function open() {
    const page = new app.Page({ listModels: () => ({ models: [] }), steerTurn: () => ({ turnId: 't1' }) });
    await page.render(createElement(app.App));
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', [userMessage('u1', 'hi'), fileChange as never], 'inProgress')]),
      context: { kind: 'sidebar', restricted: false },
    });
    return page;
  }

  const prompts = (page: PageType, ...list: PromptView[]) =>
    page.receive({ type: 'prompts', threadId, prompts: list });
  const composer = (page: PageType) => page.find('textarea.tl-input') as HTMLTextAreaElement;
  const answers = (page: PageType) =>
    page.posted.filter(
      (m): m is Extract<WebviewMessage, { type: 'answerPrompt' }> => m.type === 'answerPrompt',
    );
  const button = (page: PageType, label: string) => {
    const found = page.all('.tl-prompt button').find((b) => b.textContent?.trim().startsWith(label));
    return found ?? assert.fail(`no button ${label} in ${page.find('.tl-prompts').innerHTML}`);
  };
  const press = (page: PageType, target: HTMLElement, init: KeyboardEventInit) =>
    page.act(() => {
      target.focus();
      target.dispatchEvent(new window.KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
    });

  async function typeInto(page: PageType, el: HTMLInputElement | HTMLTextAreaElement, text: string) {
    await page.act(() => {
      const proto =
        el instanceof window.HTMLTextAreaElement ? window.HTMLTextAreaElement : window.HTMLInputElement;
      Object.getOwnPropertyDescriptor(proto.prototype, 'value')!.set!.call(el, text);
      el.dispatchEvent(new window.Event('input', { bubbles: true }));
    });
  }

  it('shows a command card above the composer without touching the draft or the focus', async () => {
    const page = await open();
    const input = composer(page);
    input.focus();
    await typeInto(page, input, 'half-typed thought');
    input.setSelectionRange(4, 4);

    await prompts(
      page,
      commandPrompt('c1', 1, { proposedExecpolicyAmendment: ['npm', 'test'] }),
      commandPrompt('c2', 2),
    );
    const card = page.find('.tl-prompt');
    assert.equal(document.activeElement, input, 'the composer keeps the focus');
    assert.equal(composer(page), input, 'the same textarea, not a new one');
    assert.equal(input.value, 'half-typed thought');
    assert.equal(input.selectionStart, 4);
    assert.ok(
      card.compareDocumentPosition(input) & window.Node.DOCUMENT_POSITION_FOLLOWING,
      'the card is above',
    );
    assert.equal(card.getAttribute('aria-label'), 'Run this command? (1 of 2)');
    assert.equal(card.querySelector('.tl-prompt-command')?.textContent, 'npm test');
    // The working folder as the user knows it (the workspace's name), its full path in the tooltip.
    const cwd = card.querySelector('.tl-prompt-cwd .tl-prompt-path')!;
    assert.equal(cwd.getAttribute('title'), '/work/demo');
    assert.equal(cwd.textContent?.trim(), 'demo');
    // What Always allow stores, exactly as the server writes it, in a code block.
    assert.equal(
      card.querySelector('.tl-prompt-rule pre code')?.textContent,
      'prefix_rule(pattern=["npm","test"], decision="allow")',
    );
    assert.ok(card.textContent?.includes('Run the tests to check the fix'));
    assert.deepEqual(
      page.all('.tl-prompt button').map((b) => [b.textContent, b.getAttribute('aria-keyshortcuts')]),
      [
        ['Accept', 'Enter'],
        ['Accept for sessionS', 'S'],
        ['Always allowA', 'A'],
        ['DeclineEsc', 'Escape'],
        ['Cancel turnC', 'C'],
      ],
    );

    // Enter in the composer still sends the message (steering the running turn); it does not answer the card.
    await press(page, input, { key: 'Enter' });
    assert.deepEqual(page.requests('steerTurn'), [
      { threadId, turnId: 't1', input: [{ type: 'text', text: 'half-typed thought' }] },
    ]);
    assert.deepEqual(answers(page), []);
    await page.unmount();
  });

  it('answers with the exact decision shapes, by click and by shortcut, and shows the outcome', async () => {
    const page = await open();
    await prompts(
      page,
      commandPrompt('c1', 1, { proposedExecpolicyAmendment: ['npm', 'test'] }),
      commandPrompt('c2', 2),
      commandPrompt('c3', 3),
    );
    // As in a browser, a clicked button has the focus.
    await page.act(() => (button(page, 'Always allow').focus(), button(page, 'Always allow').click()));
    assert.deepEqual(answers(page).at(-1), {
      type: 'answerPrompt',
      key: 'c1',
      result: { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['npm', 'test'] } } },
    });
    assert.equal(
      page.find('.tl-prompt-outcome-label').textContent,
      'Accepted, and always allowed from now on',
    );
    assert.equal(page.find('.tl-prompt').getAttribute('aria-label'), 'Run this command? (1 of 2)');
    assert.equal(document.activeElement, page.find('.tl-prompt'), 'the focus moved on to the next card');

    // Shortcuts work while the card has the focus: Escape declines, Enter runs.
    await press(page, page.find('.tl-prompt'), { key: 'Escape' });
    assert.deepEqual(answers(page).at(-1), {
      type: 'answerPrompt',
      key: 'c2',
      result: { decision: 'decline' },
    });
    await press(page, page.find('.tl-prompt'), { key: 'Enter' });
    assert.deepEqual(answers(page).at(-1), {
      type: 'answerPrompt',
      key: 'c3',
      result: { decision: 'accept' },
    });
    assert.equal(page.all('.tl-prompt').length, 0);
    assert.equal(
      document.activeElement,
      composer(page),
      'the last answer gives the focus back to the composer',
    );
    assert.deepEqual(
      page.all('.tl-prompt-outcome-label').map((e) => e.textContent),
      ['Accepted, and always allowed from now on', 'Declined', 'Accepted: running'],
    );

    // The host's word: c3 was answered elsewhere first; the outcome goes after a moment.
    await page.receive({ type: 'promptSettled', threadId, key: 'c3', outcome: { resolvedElsewhere: true } });
    assert.equal(page.all('.tl-prompt-outcome-label').at(-1)?.textContent, 'Answered elsewhere');
    await page.until(() => page.all('.tl-prompt-outcome').length === 0, 6000);
    await page.unmount();
  });

  it('is one Tab stop: the arrow keys move along its answers, around the end', async () => {
    const page = await open();
    await prompts(page, commandPrompt('c1'));
    const card = page.find('.tl-prompt');
    assert.equal(card.tabIndex, 0);
    assert.deepEqual(
      page.all('.tl-prompt button').map((b) => b.tabIndex),
      [-1, -1, -1, -1],
    );
    await press(page, card, { key: 'ArrowDown' });
    assert.equal(document.activeElement?.textContent, 'Accept');
    const focused = () => document.activeElement as HTMLElement;
    await page.act(() => {
      focused().dispatchEvent(new window.KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    });
    assert.equal(focused().textContent, 'Accept for sessionS');
    await page.act(() => {
      focused().dispatchEvent(new window.KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    });
    assert.equal(focused().textContent, 'Cancel turnC');
    await page.act(() => {
      focused().dispatchEvent(new window.KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    });
    assert.equal(focused().textContent, 'Accept', 'it wraps around');
    // Enter on a focused button is that button's (the browser clicks it), not the card's primary answer.
    await press(page, page.all('.tl-prompt button')[2], { key: 'Enter' });
    assert.deepEqual(answers(page), []);
    await page.unmount();
  });

  it('removes the card of a prompt its interrupted turn took away, and says so', async () => {
    const page = await open();
    await prompts(page, commandPrompt('c1'));
    // What an interrupt does: serverRequest/resolved (the registry: resolved elsewhere), then the turn ends.
    await page.receive({ type: 'promptSettled', threadId, key: 'c1', outcome: { resolvedElsewhere: true } });
    await prompts(page);
    assert.equal(page.all('.tl-prompt').length, 0);
    assert.equal(page.find('.tl-prompt-outcome-label').textContent, 'Answered elsewhere');
    await page.receive(deltas(1, [n('turn/completed', { turn: turn('t1', [], 'interrupted') })])[0]);
    await page.frame();
    assert.equal(page.find('.tl-prompt-outcome-label').textContent, 'Cancelled (turn interrupted)');
    await page.unmount();
  });

  it('words a network prompt as network access, with the offered amendments', async () => {
    const page = await open();
    await prompts(
      page,
      commandPrompt('n1', 1, {
        command: 'curl https://example.com',
        networkApprovalContext: { host: 'example.com', protocol: 'https' },
        availableDecisions: [
          'accept',
          {
            applyNetworkPolicyAmendment: {
              network_policy_amendment: { host: 'example.com', action: 'deny' },
            },
          },
          'decline',
        ],
      }),
    );
    assert.equal(page.find('.tl-prompt-heading').textContent, 'Allow network access to https://example.com?');
    await page.act(() => button(page, 'Always deny').click());
    assert.deepEqual(answers(page).at(-1)?.result, {
      decision: {
        applyNetworkPolicyAmendment: { network_policy_amendment: { host: 'example.com', action: 'deny' } },
      },
    });
    await page.unmount();
  });

  it('shows a file change’s files with counts, opens its diff and accepts for the session', async () => {
    const page = await open();
    await prompts(page, filePrompt('f1', 'fc1'));
    assert.equal(page.find('.tl-prompt-heading').textContent, 'Apply changes to 2 files?');
    assert.deepEqual(
      page.all('.tl-prompt-files li').map((li) => li.textContent),
      ['updatesrc/a.ts+2−1', 'addnotes.txt+3−0'],
    );
    assert.ok(page.find('.tl-prompt').textContent?.includes('Write the notes'));
    await page.act(() => button(page, 'Open diff').click());
    assert.deepEqual(page.posted.at(-1), { type: 'openPromptDiff', key: 'f1' });
    await press(page, page.find('.tl-prompt'), { key: 's' });
    assert.deepEqual(answers(page).at(-1), {
      type: 'answerPrompt',
      key: 'f1',
      result: { decision: 'acceptForSession' },
    });
    assert.equal(page.find('.tl-prompt-outcome-label').textContent, 'Accepted for this session');
    await page.unmount();
  });

  it('asks questions with options, a free answer and a masked one, and sends the answers’ shape', async () => {
    const page = await open();
    await prompts(page, questionPrompt('q1'));
    const card = page.find('.tl-prompt');
    assert.deepEqual(
      page.all('.tl-prompt legend').map((l) => l.textContent),
      ['Database', 'Token'],
    );
    assert.ok(card.textContent?.includes('Which database should the app use?'));
    assert.ok(card.textContent?.includes('A file next to the app'));
    const submit = button(page, 'Submit') as HTMLButtonElement;
    assert.equal(submit.disabled, true, 'nothing answered yet');
    const [free, secret] = page.all('.tl-prompt input.tl-prompt-text') as HTMLInputElement[];
    assert.equal(secret.type, 'password');
    assert.equal(free.type, 'text');

    await page.act(() => (page.all('.tl-prompt input[type=radio]')[1] as HTMLInputElement).click());
    await typeInto(page, secret, 's3cret');
    assert.equal(submit.disabled, false);
    // The free answer replaces the chosen option.
    await typeInto(page, free, 'DuckDB');
    await page.act(() => submit.click());
    assert.deepEqual(answers(page).at(-1), {
      type: 'answerPrompt',
      key: 'q1',
      result: { answers: { db: { answers: ['DuckDB'] }, token: { answers: ['s3cret'] } } },
    });
    assert.equal(page.find('.tl-prompt-outcome-label').textContent, 'Answered');
    assert.ok(!page.find('.tl-prompts').textContent?.includes('s3cret'), 'the secret is not shown');
    await page.unmount();
  });

  it('asks an MCP tool approval as an approval card: the same answers and keys, the option’s label sent', async () => {
    const page = await open();
    const mcp = questionPrompt('m1');
    if (mcp.kind !== 'userInput') assert.fail();
    mcp.params.questions = [
      {
        id: 'mcp_tool_approval',
        header: 'Approve tool',
        question: 'Allow the MCP server "demo" to run echo with {"text":"hi"}?',
        isOther: false,
        isSecret: false,
        options: ['Accept', 'Decline', 'Cancel'].map((label) => ({ label, description: '' })),
      },
    ];
    await prompts(page, mcp);
    assert.equal(page.all('.tl-prompt input[type=radio]').length, 0, 'no radio buttons');
    assert.deepEqual(
      page.all('.tl-prompt button').map((b) => [b.textContent, b.getAttribute('aria-keyshortcuts')]),
      [
        ['Accept', 'Enter'],
        ['DeclineEsc', 'Escape'],
        ['Cancel turnC', 'C'],
      ],
    );
    await press(page, page.find('.tl-prompt'), { key: 'Escape' });
    assert.deepEqual(answers(page).at(-1)?.result, {
      answers: { mcp_tool_approval: { answers: ['Decline'] } },
    });
    assert.equal(page.find('.tl-prompt-outcome-label').textContent, 'Declined');
    await page.unmount();
  });

  it('shows nothing for another thread’s prompts', async () => {
    const page = await open();
    await page.receive({ type: 'prompts', threadId: 'thr_other', prompts: [commandPrompt('x')] });
    assert.equal(page.all('.tl-prompts').length, 0);
    await page.unmount();
  });
});
