// Item components in a jsdom page: markdown that cannot carry HTML or script, code blocks with
// highlighting and a copy button, streaming that re-renders only the growing block, and a component
// for each item type with the generic card for unknown ones.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import type { HostMessage } from '../../../webview/messages';
import { agentMessage, deltas, n, snapshot, threadId, turn, userMessage } from './conversationFixtures';
import { HOOK_SHOWN_AFTER_MS } from '../../../webview/components/items/HookRun';
import { useAppDom } from './dom';

describe('webview items (jsdom)', () => {
  const app = useAppDom();

  async function show(
    items: NonNullable<Parameters<typeof turn>[1]>,
    status: Parameters<typeof turn>[2] = 'completed',
  ) {
    const page = new app.Page({ listModels: () => ({ models: [] }) });
    await page.render(createElement(app.App));
    const message: HostMessage = {
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', items, status)]),
      context: { kind: 'sidebar', restricted: false },
    };
    await page.receive(message);
    await page.until(() => page.all('[data-item-type]').length === items.length);
    return page;
  }

  it('renders markdown without raw HTML, script links or inline handlers', async () => {
    const text = [
      '# Title',
      '',
      'Some **bold** and <img src=x onerror="alert(1)"> and <script>alert(2)</script>',
      '',
      '[bad](javascript:alert(3)) [good](https://example.com/docs)',
      '',
      '| a | b |',
      '| - | - |',
      '| 1 | 2 |',
    ].join('\n');
    const page = await show([agentMessage('a1', text)]);
    const md = page.find('.tl-agent .tl-markdown');
    assert.equal(md.querySelector('h1')?.textContent, 'Title');
    assert.equal(md.querySelector('strong')?.textContent, 'bold');
    assert.equal(md.querySelector('img'), null);
    assert.equal(md.querySelector('script'), null);
    assert.match(md.textContent ?? '', /<img src=x onerror="alert\(1\)">/, 'raw HTML shown as text');
    assert.equal(md.querySelector('table td')?.textContent, '1');
    const hrefs = [...md.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    assert.deepEqual(hrefs, ['https://example.com/docs']);
    await page.act(() => md.querySelector('a')!.click());
    assert.deepEqual(page.posted.at(-1), { type: 'openLink', href: 'https://example.com/docs' });
    await page.unmount();
  });

  it('highlights code blocks and copies their code', async () => {
    const page = await show([agentMessage('a1', '```ts\nconst x: number = 1;\n```')]);
    const code = page.find('.tl-code code');
    assert.ok(code.querySelector('.hljs-keyword'), 'keywords highlighted');
    assert.equal(code.textContent, 'const x: number = 1;\n');
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (t: string) => copied.push(t) },
      configurable: true,
    });
    await page.act(() => page.find('.tl-copy').click());
    assert.deepEqual(copied, ['const x: number = 1;\n']);
    await page.unmount();
  });

  it('streams an answer once per frame, keeping finished blocks as they are', async () => {
    const page = await show([agentMessage('a1', 'First paragraph.\n\nSec')], 'inProgress');
    const first = page.find('.tl-agent .tl-block');
    for (const m of deltas(1, [
      n('item/agentMessage/delta', { turnId: 't1', itemId: 'a1', delta: 'ond' }),
      n('item/agentMessage/delta', { turnId: 't1', itemId: 'a1', delta: ' one.' }),
    ])) {
      await page.receive(m);
    }
    assert.doesNotMatch(page.find('.tl-agent').textContent ?? '', /Second one/, 'not before the frame');
    await page.frame();
    const blocks = page.all('.tl-agent .tl-block');
    assert.equal(blocks[1].textContent?.trim(), 'Second one.');
    assert.equal(blocks[0], first, 'the finished block kept its element');
    await page.unmount();
  });

  it('renders a message streamed in small pieces exactly as the whole message', async () => {
    const whole =
      'Title\n=====\n\n- one\n- two\ncontinued\n\n```py\nprint(1)\n\nprint(2)\n```\n\n> quote\nlazy\n\nend';
    const page = await show([agentMessage('a1', '')], 'inProgress');
    const pieces = whole.match(/[\s\S]{1,3}/g)!;
    const messages = deltas(
      1,
      pieces.map((delta) => n('item/agentMessage/delta', { turnId: 't1', itemId: 'a1', delta })),
    );
    for (const [i, m] of messages.entries()) {
      await page.receive(m);
      if (i % 2 === 0) await page.frame(); // a frame after some pieces, as the page gets them
    }
    await page.frame();
    const streamed = page.find('.tl-agent .tl-markdown').innerHTML;
    const fresh = await show([agentMessage('a1', whole)]);
    assert.equal(streamed, fresh.find('.tl-agent .tl-markdown').innerHTML);
    assert.equal(fresh.find('.tl-agent h1').textContent, 'Title');
    await page.unmount();
    await fresh.unmount();
  });

  it('shows a command with the tail of its output, exit code and status; all lines on demand', async () => {
    const output = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
    const command = {
      type: 'commandExecution',
      id: 'c1',
      command: 'npm test',
      cwd: '/w',
      commandActions: [],
      status: 'completed',
      exitCode: 1,
      durationMs: 1500,
      aggregatedOutput: output,
    };
    const page = await show([command as never]);
    const card = page.find('.tl-command');
    assert.match(card.textContent ?? '', /npm test/);
    assert.match(card.textContent ?? '', /exit 1/);
    assert.match(card.textContent ?? '', /1\.5 s/);
    const pre = () => page.find('.tl-terminal pre').textContent ?? '';
    assert.doesNotMatch(pre(), /line 18\n/);
    assert.match(pre(), /line 30$/);
    await page.act(() => page.find('.tl-terminal button').click());
    assert.match(pre(), /^line 1\n/);
    // Show in Terminal hands the host the item as the view has it, output so far included.
    await page.act(() => page.find('button.tl-command-terminal').click());
    const posted = page.posted.at(-1) as { type: string; threadId: string; item: typeof command };
    assert.equal(posted.type, 'showInTerminal');
    assert.equal(typeof posted.threadId, 'string');
    assert.deepEqual(posted.item, command);
    await page.unmount();
  });

  it("names a command's folder as the cards do: the workspace folder's name, the full path in its tooltip", async () => {
    const inside = {
      type: 'commandExecution',
      id: 'c3',
      command: 'ls',
      commandActions: [],
      status: 'completed',
    };
    const page = await show([
      { ...inside, cwd: '/work/demo/src/app' } as never,
      { ...inside, id: 'c4', cwd: '/elsewhere' } as never,
    ]);
    const folders = page.all('.tl-command .tl-prompt-path');
    assert.deepEqual(
      folders.map((f) => [f.textContent, f.getAttribute('title')]),
      [
        ['demo/src/app', '/work/demo/src/app'],
        ['/elsewhere', '/elsewhere'],
      ],
    );
    await page.unmount();
  });

  /** A page showing one running turn, and a hook run of it as the server reports one. */
  async function hookPage() {
    const page = new app.Page({ listModels: () => ({ models: [] }) });
    await page.render(createElement(app.App));
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', [], 'inProgress')]),
      context: { kind: 'sidebar', restricted: false },
    });
    return page;
  }
  const hookRun = (status: string, entries: { kind: string; text: string }[] = []) => ({
    id: 'r1',
    eventName: 'preToolUse',
    handlerType: 'command',
    executionMode: 'sync',
    scope: 'turn',
    source: 'project',
    sourcePath: '/work/demo/.threadline/hooks.json',
    displayOrder: 0,
    status,
    statusMessage: null,
    startedAt: 1,
    completedAt: status === 'running' ? null : 2,
    durationMs: status === 'running' ? null : 1200,
    entries,
  });

  it('shows a hook that blocked with what it said, as text, and the file it is configured in', async () => {
    const page = await hookPage();
    const said = '<img src=x onerror=alert(1)> not on main';
    const [message] = deltas(1, [
      n('hook/completed', { turnId: 't1', run: hookRun('blocked', [{ kind: 'feedback', text: said }]) }),
    ]);
    await page.receive(message!);
    await page.frame();
    await page.until(() => page.all('.tl-hook').length === 1);
    const hook = page.find('.tl-hook');
    assert.match(hook.textContent ?? '', /PreToolUse hook/);
    assert.match(hook.textContent ?? '', /blocked/);
    assert.equal(hook.querySelector('.tl-prompt-path')?.textContent, 'hooks.json');
    assert.equal(
      hook.querySelector('.tl-prompt-path')?.getAttribute('title'),
      '/work/demo/.threadline/hooks.json',
    );
    assert.equal(page.find('.tl-hook-entry').textContent, said);
    assert.equal(hook.querySelector('img'), null, 'what a hook printed stays text');
    await page.unmount();
  });

  it('shows a running hook only once it has run for a moment (a quick one never flashes a line)', async () => {
    const page = await hookPage();
    const [message] = deltas(1, [n('hook/started', { turnId: 't1', run: hookRun('running') })]);
    await page.receive(message!);
    await page.frame();
    await page.until(() => page.all('[data-item-type="hookRun"]').length === 1);
    assert.equal(page.all('.tl-hook').length, 0, 'not yet');
    await new Promise((resolve) => setTimeout(resolve, HOOK_SHOWN_AFTER_MS + 200));
    await page.until(() => page.all('.tl-hook').length === 1);
    assert.match(page.find('.tl-hook').textContent ?? '', /PreToolUse hook.*running/);
    await page.unmount();
  });

  it('shows a command output without its terminal colours (they would show as escape codes)', async () => {
    const command = {
      type: 'commandExecution',
      id: 'c2',
      command: 'npm test',
      cwd: '/w',
      commandActions: [],
      status: 'completed',
      exitCode: 0,
      aggregatedOutput: '\u001b[31mred\u001b[0m plain\r\nnext\n',
    };
    const page = await show([command as never]);
    assert.equal(page.find('.tl-terminal pre').textContent, 'red plain\nnext');
    await page.unmount();
  });

  it('shows file changes with counts and a preview, and asks the host for the diff', async () => {
    const diff = '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n-old\n+new\n+more\n same';
    const change = {
      type: 'fileChange',
      id: 'f1',
      status: 'completed',
      changes: [{ path: 'src/a.ts', kind: { type: 'update', move_path: null }, diff }],
    };
    const page = await show([change as never]);
    const file = page.find('.tl-file');
    assert.equal(file.querySelector('.tl-added')?.textContent, '+2');
    assert.equal(file.querySelector('.tl-removed')?.textContent, '−1');
    assert.equal(page.all('.tl-diff-add').length, 2);
    await page.act(() => page.find('.tl-file-head button').click());
    assert.deepEqual(page.posted.at(-1), { type: 'openFileDiff', path: 'src/a.ts', kind: 'update', diff });
    await page.unmount();
  });

  it('asks for the diff of a moved file where the file is now', async () => {
    const diff = '--- a/src/a.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-old\n+new';
    const change = {
      type: 'fileChange',
      id: 'f2',
      status: 'completed',
      changes: [{ path: 'src/a.ts', kind: { type: 'update', move_path: 'src/b.ts' }, diff }],
    };
    const page = await show([change as never]);
    await page.act(() => page.find('.tl-file-head button').click());
    assert.deepEqual(page.posted.at(-1), {
      type: 'openFileDiff',
      path: 'src/a.ts',
      kind: 'update',
      diff,
      movePath: 'src/b.ts',
    });
    await page.unmount();
  });

  it('has a component for every item type, and a generic card for unknown ones', async () => {
    const items = [
      userMessage('u1', 'please'),
      { type: 'reasoning', id: 'r1', summary: ['**Looking** around'], content: [] },
      { type: 'plan', id: 'p1', text: '1. read' },
      {
        type: 'mcpToolCall',
        id: 'm1',
        server: 'docs',
        tool: 'lookup',
        status: 'failed',
        arguments: { q: 1 },
        error: { message: 'nope' },
      },
      {
        type: 'mcpToolCall',
        id: 'm2',
        server: 'db',
        tool: 'drop_table',
        status: 'completed',
        arguments: { table: 'users' },
        result: { content: [{ type: 'text', text: 'dropped users' }] },
      },
      {
        type: 'dynamicToolCall',
        id: 'd1',
        tool: 'custom',
        status: 'completed',
        arguments: {},
        contentItems: [{ type: 'inputText', text: 'ok' }],
      },
      { type: 'webSearch', id: 'w1', query: 'vscode api' },
      { type: 'imageView', id: 'i1', path: '/tmp/shot.png' },
      { type: 'enteredReviewMode', id: 'e1', review: 'current changes' },
      { type: 'contextCompaction', id: 'cc1' },
      { type: 'hologram', id: 'h1', beam: 3 },
    ];
    const page = await show(items as never);
    const text = (type: string) => page.find(`[data-item-type="${type}"]`).textContent ?? '';
    assert.match(text('userMessage'), /please/);
    assert.match(text('reasoning'), /Looking around/);
    assert.equal(page.find('[data-item-type="reasoning"] details').hasAttribute('open'), false, 'collapsed');
    assert.match(text('plan'), /read/);
    assert.match(text('mcpToolCall'), /docs · lookup/);
    assert.match(text('mcpToolCall'), /nope/);
    // A text-only MCP result reads as its text, not as the JSON around it.
    const dropped = page.all('[data-item-type="mcpToolCall"]')[1]!;
    assert.deepEqual(
      [...dropped.querySelectorAll('pre')].map((pre) => pre.textContent),
      ['{\n  "table": "users"\n}', 'dropped users'],
    );
    assert.match(text('dynamicToolCall'), /custom/);
    assert.match(text('webSearch'), /vscode api/);
    assert.match(text('imageView'), /shot\.png/);
    assert.match(text('enteredReviewMode'), /Review started/);
    assert.match(text('contextCompaction'), /Context compacted/);
    assert.match(text('hologram'), /hologram/);
    assert.match(text('hologram'), /"beam": 3/);
    await page.unmount();
  });

  it('explains turn errors and offers the turn’s changes', async () => {
    const page = await show([userMessage('u1', 'hi')], 'failed');
    const diff = 'diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b';
    for (const m of deltas(1, [
      n('error', {
        turnId: 't1',
        error: { message: '401 from provider', codexErrorInfo: 'unauthorized' },
        willRetry: false,
      }),
      n('turn/diff/updated', { turnId: 't1', diff }),
    ])) {
      await page.receive(m);
    }
    await page.frame();
    assert.match(page.find('.tl-error').textContent ?? '', /rejected the API key.*401 from provider/);
    const changes = page.find('.tl-changes');
    assert.match(changes.textContent ?? '', /1 file/);
    await page.act(() => changes.click());
    assert.deepEqual(page.posted.at(-1), { type: 'openTurnChanges', turnId: 't1', diff });
    await page.unmount();
  });

  it('shows a turn the server stopped as interrupted, with why, not as a failure', async () => {
    const page = await show([userMessage('u1', 'hi')], 'interrupted');
    await page.receive(
      deltas(1, [
        n('error', {
          turnId: 't1',
          error: { message: 'The server stopped before this turn finished.' },
          willRetry: false,
        }),
      ])[0],
    );
    await page.frame();
    assert.equal(page.all('.tl-error').length, 0);
    assert.match(
      page.find('[data-turn-status="interrupted"]').textContent ?? '',
      /Interrupted: The server stopped before this turn finished\./,
    );
    await page.unmount();
  });

  it("offers a long turn's earlier steps at its top and puts them before the ones shown", async () => {
    const page = new app.Page({
      listModels: () => ({ models: [] }),
      loadEarlierItems: () => ({ loaded: 2 }),
    });
    await page.render(createElement(app.App));
    const sent = { ...snapshot([turn('t1', [agentMessage('a3', 'third'), agentMessage('a4', 'fourth')])]) };
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: { ...sent, earlierItems: ['t1'] },
      context: { kind: 'sidebar', restricted: false },
    });
    const offer = () => page.all('.tl-earlier-items button');
    await page.until(() => offer().length === 1);
    await page.act(() => offer()[0]!.click());
    await page.until(() => page.requests('loadEarlierItems').length === 1);
    assert.deepEqual(page.requests('loadEarlierItems'), [{ threadId, turnId: 't1', beforeItemId: 'a3' }]);
    await page.receive({
      type: 'earlierItems',
      threadId,
      turnId: 't1',
      items: [userMessage('u1', 'Go'), agentMessage('a1', 'first')],
      hasEarlierItems: false,
    });
    await page.until(() => page.all('[data-item-type]').length === 4);
    const ids = page.all('[data-item-id]').map((el) => el.getAttribute('data-item-id'));
    assert.deepEqual(ids, ['u1', 'a1', 'a3', 'a4']);
    assert.equal(offer().length, 0, 'nothing earlier left');
    await page.unmount();
  });
});
