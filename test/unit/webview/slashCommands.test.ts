// `/` commands and plan mode in the composer (jsdom, real React): the menu of built-ins and prompt
// files, with the suggestion lists' keys; a prompt file's arguments expanded as Codex expands them;
// each built-in reaching what the host offers; the plan toggle naming the mode only when it changes;
// the plan card's Implement and Revise. The pure helpers are checked alone first.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import type { ThreadItem } from '../../../server/protocol/items';
import { expandPrompt, parsePromptFile, splitArguments } from '../../../webview/composer/customPrompts';
import {
  BUILTIN_COMMANDS,
  parseSlash,
  promptItems,
  slashQueryAt,
} from '../../../webview/composer/slashCommands';
import type { HostMessage } from '../../../webview/messages';
import { snapshot, threadId, turn, userMessage } from './conversationFixtures';
import { useAppDom } from './dom';

const review = parsePromptFile(
  'review-file',
  '---\ndescription: Review one file\nargument-hint: FILE=<path> [FOCUS=<what>]\nmodel: o1-pro\napproval_policy: never\n---\nReview $FILE, about $FOCUS. Costs $$5.\n',
  'workspace',
);
const fix = parsePromptFile('fix', 'Fix $1 in $2 (all: $ARGUMENTS)', 'user');

describe('prompt files', () => {
  it('reads description and argument hint from the front matter, and nothing else', () => {
    assert.deepEqual(review, {
      name: 'review-file',
      description: 'Review one file',
      argumentHint: 'FILE=<path> [FOCUS=<what>]',
      body: 'Review $FILE, about $FOCUS. Costs $$5.\n',
      source: 'workspace',
    });
    assert.deepEqual(parsePromptFile('plain', '\uFEFFJust text\r\n', 'user').body, 'Just text\n');
  });

  it('splits arguments on whitespace, keeping double-quoted ones together', () => {
    assert.deepEqual(splitArguments(' a "b c"  FILE="d e.ts" '), ['a', 'b c', 'FILE=d e.ts']);
  });

  it('fills $1…$9 and $ARGUMENTS from positional arguments, once, leaving $$ alone', () => {
    assert.deepEqual(expandPrompt(fix, 'bug "src/a b.ts"'), {
      text: 'Fix bug in src/a b.ts (all: bug src/a b.ts)',
    });
    // An argument that itself reads `$2` is not expanded again; a missing one is empty.
    assert.deepEqual(expandPrompt(fix, '$2'), { text: 'Fix $2 in  (all: $2)' });
  });

  it('fills $NAME from NAME=value pairs and says which are missing or malformed', () => {
    assert.deepEqual(expandPrompt(review, 'FILE=a.ts FOCUS="error handling"'), {
      text: 'Review a.ts, about error handling. Costs $$5.\n',
    });
    assert.deepEqual(expandPrompt(review, 'FILE=a.ts'), { error: '/prompts:review-file needs FOCUS=…' });
    assert.deepEqual(expandPrompt(review, 'a.ts'), {
      error: '/prompts:review-file takes NAME=value arguments (FILE, FOCUS); "a.ts" is not one',
    });
  });

  it('reads a command only at the start of the draft, and only a known one', () => {
    const items = [...BUILTIN_COMMANDS, ...promptItems([fix])];
    assert.equal(slashQueryAt('/pl', 3), 'pl');
    assert.equal(slashQueryAt('say /pl', 7), null);
    assert.equal(slashQueryAt('/plan x', 7), null);
    assert.deepEqual(parseSlash('/prompts:fix a b', items), { item: items.at(-1), args: 'a b' });
    assert.equal(parseSlash('/usr/bin is where?', items), null);
    assert.equal(parseSlash('/nope', items), null);
  });
});

const planItem = (id: string, text: string) => ({ type: 'plan', id, text }) as ThreadItem;

describe('webview composer / menu and plan mode (jsdom)', () => {
  const app = useAppDom();

  async function open(turns = [turn('t1', [userMessage('u1', 'hi')], 'completed')]) {
    const page = new app.Page(
      {
        listModels: () => ({ models: [] }),
        startTurn: () => ({ turnId: 't2' }),
        checkSetup: () => ({ ready: true }),
        listPrompts: () => ({ prompts: [fix, review] }),
        startReview: () => ({ turnId: 'r1' }),
        compactThread: () => ({}),
        readRateLimits: () => ({
          rateLimits: {
            limitId: 'openai',
            primary: { usedPercent: 42, windowDurationMins: 1 },
            secondary: null,
          },
        }),
      },
      {},
    );
    await page.render(createElement(app.App));
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot(turns),
      context: { kind: 'sidebar', restricted: false },
    } as HostMessage);
    return page;
  }
  const names = (page: InstanceType<typeof app.Page>) =>
    page.all('[aria-label="Commands"] [role="option"] .tl-mention-path').map((o) => o.textContent);
  const posted = (page: InstanceType<typeof app.Page>, type: string) =>
    page.posted.filter((m) => m.type === type);

  it('opens on / with the built-ins and the prompt files, filters, and runs a built-in on Enter', async () => {
    const page = await open();
    await page.type('/');
    await page.until(() => names(page).length === 10);
    assert.deepEqual(names(page), [
      '/new',
      '/plan',
      '/review',
      '/compact',
      '/goal',
      '/undo',
      '/model',
      '/status',
      '/prompts:fix',
      '/prompts:review-file',
    ]);
    await page.type('/re');
    assert.deepEqual(names(page), ['/review', '/prompts:review-file']);
    assert.deepEqual(
      page.all('[aria-label="Commands"] [role="option"] b').map((b) => b.textContent),
      ['re', 're'],
      'the typed letters in bold',
    );
    await page.key({ key: 'Enter' });
    assert.deepEqual(page.requests('startReview'), [{ threadId, instructions: '' }]);
    assert.equal((page.find('textarea') as HTMLTextAreaElement).value, '');
    assert.equal(page.all('[aria-label="Commands"]').length, 0, 'the menu closes');

    // Typed out with arguments, Enter sends the command rather than a message.
    await page.type('/review the error paths');
    await page.key({ key: 'Enter' });
    assert.deepEqual(page.requests('startReview')[1], { threadId, instructions: 'the error paths' });
    await page.type('/compact');
    await page.key({ key: 'Enter' });
    assert.deepEqual(page.requests('compactThread'), [{ threadId }]);
    for (const [typed, command] of [
      ['/new', 'newThread'],
      ['/model', 'chooseModel'],
    ]) {
      await page.type(typed);
      await page.key({ key: 'Enter' });
      assert.deepEqual(posted(page, 'runCommand').at(-1), { type: 'runCommand', command });
    }
    await page.type('/undo');
    await page.key({ key: 'Enter' });
    assert.deepEqual(posted(page, 'undoTurnChanges'), [{ type: 'undoTurnChanges', turnId: 't1' }]);
    assert.deepEqual(page.requests('startTurn'), [], 'no command became a message');
    await page.unmount();
  });

  it('/status shows the model, the mode and the rate limits', async () => {
    const page = await open();
    await page.type('/status');
    await page.key({ key: 'Enter' });
    await page.until(() =>
      /42% used of a 1 min window/.test(page.find('[aria-label="Status"]').textContent!),
    );
    const status = page.find('[aria-label="Status"]').textContent!;
    assert.match(status, /Modelgpt-test/);
    assert.match(status, /ModeDefault/);
    assert.match(status, /Tokens limitnot reported by the provider/);
    await page.act(() => page.find('[aria-label="Close status"]').click());
    assert.equal(page.all('[aria-label="Status"]').length, 0);
    await page.unmount();
  });

  it('a prompt file is inserted for its arguments, then sent expanded as the message', async () => {
    const page = await open();
    await page.type('/prompts:r');
    await page.until(() => names(page).length === 1);
    await page.key({ key: 'Tab' });
    const input = page.find('textarea') as HTMLTextAreaElement;
    assert.equal(input.value, '/prompts:review-file ');
    assert.deepEqual(page.requests('startTurn'), []);

    await page.type('/prompts:review-file FILE=a.ts');
    await page.key({ key: 'Enter' });
    assert.equal(page.find('[role="alert"]').textContent, '/prompts:review-file needs FOCUS=…');
    assert.equal(input.value, '/prompts:review-file FILE=a.ts', 'the draft stays to be fixed');

    await page.type('/prompts:review-file FILE=a.ts FOCUS="the loop"');
    await page.key({ key: 'Enter' });
    await page.until(() => page.requests('startTurn').length === 1);
    assert.deepEqual(page.requests('startTurn'), [
      {
        threadId,
        input: [{ type: 'text', text: 'Review a.ts, about the loop. Costs $$5.' }],
        overrides: {},
      },
    ]);
    await page.unmount();
  });

  it('the toggle and /plan put the thread in plan mode; a turn names the mode only when it changes', async () => {
    const page = await open();
    const toggle = () => page.find('.tl-plan-toggle');
    assert.equal(toggle().getAttribute('aria-pressed'), 'false');
    await page.type('/plan look at the parser');
    await page.key({ key: 'Enter' });
    await page.until(() => page.requests('startTurn').length === 1);
    assert.equal(toggle().getAttribute('aria-pressed'), 'true');
    const mode = (name: string) => ({ mode: { mode: name, model: 'gpt-test' } });
    await page.type('and the lexer');
    await page.key({ key: 'Enter' });
    await page.until(() => page.requests('startTurn').length === 2);
    await page.act(() => toggle().click());
    for (const text of ['go', 'more']) {
      await page.type(text);
      await page.key({ key: 'Enter' });
    }
    await page.until(() => page.requests('startTurn').length === 4);
    assert.deepEqual(
      page.requests('startTurn').map((p) => (p as { overrides: unknown }).overrides),
      [mode('plan'), mode('plan'), mode('default'), {}],
    );
    await page.unmount();
  });

  it("the plan card's Implement leaves plan mode and continues; Revise keeps it and focuses the composer", async () => {
    const page = await open([
      turn('t1', [userMessage('u1', 'plan it'), planItem('p1', '1. Edit a.ts')], 'completed'),
    ]);
    await page.act(() => page.find('.tl-plan-toggle').click());
    const card = () => page.find('.tl-plan-card');
    assert.match(card().textContent!, /Edit a\.ts/);
    const button = (label: string) =>
      page.all('.tl-plan-card button').find((b) => b.textContent?.includes(label))!;

    await page.type('keep this draft');
    await page.act(() => button('Revise').click());
    assert.equal(document.activeElement, page.find('textarea'));
    assert.equal(page.find('.tl-plan-toggle').getAttribute('aria-pressed'), 'true');
    assert.deepEqual(page.requests('startTurn'), []);

    await page.act(() => button('Implement').click());
    await page.until(() => page.requests('startTurn').length === 1);
    assert.deepEqual(page.requests('startTurn'), [
      {
        threadId,
        input: [{ type: 'text', text: 'Implement the plan.' }],
        overrides: { mode: { mode: 'default', model: 'gpt-test' } },
      },
    ]);
    assert.equal(page.find('.tl-plan-toggle').getAttribute('aria-pressed'), 'false');
    assert.equal((page.find('textarea') as HTMLTextAreaElement).value, 'keep this draft');
    await page.unmount();
  });

  it('offers no plan actions on an older turn or while the turn runs', async () => {
    const page = await open([
      turn('t1', [planItem('p1', 'old plan')], 'completed'),
      turn('t2', [planItem('p2', 'new plan')], 'inProgress'),
    ]);
    assert.equal(page.all('.tl-plan-card').length, 2);
    assert.equal(page.all('.tl-plan-card button').length, 0);
    await page.unmount();
  });
});
