// The one `@` list for files, folders, symbols and the editor's context (jsdom, real React): ranked
// by how well the label matches, the editor's context first among equals; arrows wrap, Enter/Tab
// insert, Escape closes; a sent prompt carries the items the host resolves for the `@` tokens it
// still names. The pure parts (reading tokens back from text, ranking) are checked alone.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import type { ContextMention, MentionSuggestion } from '../../../webview/messages';
import { contextMentions, rankMentions } from '../../../webview/composer/contextMention';
import { snapshot, threadId, turn, userMessage } from './conversationFixtures';
import { useAppDom } from './dom';

const suggestions: MentionSuggestion[] = [
  {
    kind: 'context',
    label: 'src/app.ts:3-9',
    insert: '@src/app.ts:3-9',
    icon: 'list-selection',
    detail: 'Selection',
  },
  { kind: 'context', label: 'src/app.ts', insert: '@src/app.ts', icon: 'file-code', detail: 'Active file' },
  {
    kind: 'context',
    label: 'problems',
    insert: '@problems',
    icon: 'warning',
    detail: '2 in the workspace',
  },
  {
    kind: 'context',
    label: 'terminal',
    insert: '@terminal',
    icon: 'terminal',
    detail: 'Last command in "bash": make',
  },
  { kind: 'file', label: 'src/parser.ts', insert: 'src/parser.ts', icon: 'file', indices: [4, 5, 6] },
  { kind: 'folder', label: 'src/', insert: '@src/', icon: 'folder' },
  { kind: 'file', label: 'docs/terms.md', insert: 'docs/terms.md', icon: 'file' },
  {
    kind: 'symbol',
    label: 'Parser',
    insert: '@sym:Parser',
    icon: 'symbol-class',
    detail: 'class in src/parser.ts:4',
    location: { path: 'src/parser.ts', startLine: 4, endLine: 4 },
  },
];

const labels = (list: { label: string }[]) => list.map((s) => s.label);

describe('@ context mentions', () => {
  it('reads the context tokens back from the text, once each', () => {
    const symbols = new Map([['Parser', { path: 'src/parser.ts', startLine: 4, endLine: 30 }]]);
    const found: ContextMention[] = contextMentions(
      [
        'Fix @src/app.ts:3-9 and @src/app.ts:12, see @problems, @problems:src/app.ts and @terminal.',
        'List @src/ and @"my docs"/ then read @"a b.ts":2-4 and @README.md; use @sym:Parser and @sym:Other.',
        'Not these: mail@example.com, @, @terminal again, a@terminal',
      ].join('\n'),
      symbols,
    );
    assert.deepEqual(found, [
      { kind: 'selection', path: 'src/app.ts', startLine: 3, endLine: 9 },
      { kind: 'selection', path: 'src/app.ts', startLine: 12, endLine: 12 },
      { kind: 'problems' },
      { kind: 'problems', path: 'src/app.ts' },
      { kind: 'terminal' },
      { kind: 'folder', path: 'src' },
      { kind: 'folder', path: 'my docs' },
      { kind: 'selection', path: 'a b.ts', startLine: 2, endLine: 4 },
      { kind: 'file', path: 'README.md' },
      { kind: 'symbol', name: 'Parser', location: { path: 'src/parser.ts', startLine: 4, endLine: 30 } },
      { kind: 'symbol', name: 'Other' },
    ]);
    assert.deepEqual(contextMentions('@a.ts:9-3 and @a.ts:0'), [], 'a backwards or zero range names nothing');
  });

  it('ranks by match, the editor context first among equals, and keeps the order given for an empty query', () => {
    assert.deepEqual(labels(rankMentions('', suggestions)), labels(suggestions));
    // "te": terminal starts with it (context first), then docs/terms.md, whose name does.
    assert.deepEqual(labels(rankMentions('te', suggestions)), ['terminal', 'docs/terms.md']);
    // "s": what starts with it, context first, then what contains it, then letters in order.
    assert.deepEqual(labels(rankMentions('s', suggestions)), [
      'src/app.ts:3-9',
      'src/app.ts',
      'src/parser.ts',
      'src/',
      'problems',
      'docs/terms.md',
      'Parser',
    ]);
    assert.deepEqual(labels(rankMentions('pars', suggestions)), ['src/parser.ts', 'Parser']);
    assert.deepEqual(labels(rankMentions('spts', suggestions)), [
      'src/app.ts:3-9',
      'src/app.ts',
      'src/parser.ts',
    ]);
    assert.deepEqual(labels(rankMentions('prob', suggestions)), ['problems']);
    // The matched letters come back for highlighting: the name's, not the folder's.
    assert.deepEqual(rankMentions('pars', suggestions)[0]!.indices, [4, 5, 6, 7]);
    assert.equal(rankMentions('', suggestions, 3).length, 3);
  });
});

describe('webview composer @ context (jsdom)', () => {
  const app = useAppDom();

  async function open() {
    const page = new app.Page(
      {
        listModels: () => ({ models: [] }),
        startTurn: () => ({ turnId: 't2' }),
        suggestMentions: () => ({ suggestions }),
        resolveMentions: ({ mentions }: { mentions: ContextMention[] }) => ({
          input: mentions.map((m) => ({ type: 'mention', name: JSON.stringify(m), path: '/resolved' })),
        }),
      },
      {},
    );
    await page.render(createElement(app.App));
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', [userMessage('u1', 'hi')], 'completed')]),
      context: { kind: 'sidebar', restricted: false },
    });
    return page;
  }

  const options = (page: InstanceType<typeof app.Page>) =>
    page.all('[aria-label="Mentions"] [role="option"]');
  const selected = (page: InstanceType<typeof app.Page>) =>
    options(page).findIndex((o) => o.getAttribute('aria-selected') === 'true');

  it('offers the editor context with files, moves with the arrows, inserts a token and sends its context', async () => {
    const page = await open();
    await page.type('explain @');
    await page.until(() => options(page).length === suggestions.length);
    assert.deepEqual(
      options(page).map((o) => o.textContent?.trim()),
      suggestions.map((s) => `${s.label}${s.detail ? ` ${s.detail}` : ''}`),
    );
    assert.equal(selected(page), 0);
    await page.key({ key: 'ArrowUp' });
    assert.equal(selected(page), suggestions.length - 1, 'up from the first wraps to the last');
    await page.key({ key: 'ArrowDown' });
    await page.key({ key: 'ArrowDown' });
    assert.equal(selected(page), 1);
    await page.key({ key: 'Tab' });
    const input = page.find('textarea') as HTMLTextAreaElement;
    assert.equal(input.value, 'explain @src/app.ts ');
    assert.equal(options(page).length, 0, 'the list closes');
    // The caret is placed after the token on the next frame, as a user's next keystroke would find it.
    await new Promise((resolve) => setTimeout(resolve, 50));

    await page.type('explain @src/app.ts with @term');
    await page.until(() => options(page).length === 2);
    assert.deepEqual(
      options(page).map((o) => o.querySelector('b')?.textContent),
      ['term', 'term'],
    );
    await page.key({ key: 'Enter' });
    assert.equal(input.value, 'explain @src/app.ts with @terminal ');
    assert.deepEqual(page.requests('startTurn'), [], 'Enter chose, it did not send');
    await page.key({ key: 'Enter' });
    await page.until(() => page.requests('startTurn').length === 1);
    assert.deepEqual(page.requests('resolveMentions'), [
      { mentions: [{ kind: 'file', path: 'src/app.ts' }, { kind: 'terminal' }] },
    ]);
    assert.deepEqual(page.requests('startTurn'), [
      {
        threadId,
        input: [
          { type: 'text', text: 'explain @src/app.ts with @terminal' },
          { type: 'mention', name: '{"kind":"file","path":"src/app.ts"}', path: '/resolved' },
          { type: 'mention', name: '{"kind":"terminal"}', path: '/resolved' },
        ],
        overrides: {},
      },
    ]);
    await page.unmount();
  });

  it('Escape closes the list; a prompt naming no context asks the host nothing', async () => {
    const page = await open();
    await page.type('plain @pars');
    await page.until(() => options(page).length === 2);
    await page.key({ key: 'Escape' });
    assert.equal(options(page).length, 0);
    await page.type('plain text');
    await page.key({ key: 'Enter' });
    await page.until(() => page.requests('startTurn').length === 1);
    assert.deepEqual(page.requests('resolveMentions'), []);
    await page.unmount();
  });

  it('shows attached context in a sent message by its token, not its whole text', async () => {
    const page = await open();
    const block = 'The output of the command "make" (exit code 2)…\n```\nlots of output\n```';
    const item = {
      type: 'userMessage' as const,
      id: 'u2',
      content: [
        { type: 'text' as const, text: 'why?' },
        {
          type: 'text' as const,
          text: block,
          text_elements: [{ byteRange: { start: 0, end: block.length + 2 }, placeholder: '@terminal' }],
        },
        { type: 'mention' as const, name: 'src/app.ts:3-9', path: '/w/src/app.ts#L3-9' },
      ],
    };
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', [item], 'completed')]),
      context: { kind: 'sidebar', restricted: false },
    });
    const you = page.find('[aria-label="You"]');
    assert.deepEqual(
      [...you.querySelectorAll('.tl-chip')].map((chip) => chip.textContent?.trim()),
      ['terminal', 'src/app.ts:3-9'],
    );
    assert.ok(!you.textContent?.includes('lots of output'));
    assert.equal(
      you.querySelector('.tl-chip')?.getAttribute('title'),
      'The output of the command "make" (exit code 2)…',
    );
    await page.unmount();
  });

  it('appends what an editor command sends on a word of its own', async () => {
    const page = await open();
    await page.type('look at');
    await page.receive({ type: 'insertText', text: '@src/app.ts:3-9 ' });
    assert.equal((page.find('textarea') as HTMLTextAreaElement).value, 'look at @src/app.ts:3-9 ');
    await page.unmount();
  });
});
