import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import type { ThreadItem } from '../../../../server/protocol/items';
import type { Turn } from '../../../../server/protocol/thread';
import {
  code,
  fence,
  inline,
  threadMarkdown,
  type ExportedThread,
} from '../../../../extension/export/threadMarkdown';

function turn(items: ThreadItem[], status: Turn['status'] = 'completed'): Turn {
  return { id: 't', items, status, error: null, startedAt: 1, completedAt: 2, durationMs: 1000 };
}

function thread(turns: Turn[], name: string | null = 'Fix the build'): ExportedThread {
  return {
    id: 'th-1',
    name,
    preview: 'p',
    cwd: '/work/app',
    model: 'gpt-x',
    createdAt: 1_800_000_000,
    turns,
  };
}

const user = (text: string): ThreadItem => ({
  type: 'userMessage',
  id: 'u',
  content: [{ type: 'text', text, text_elements: [] }],
});
const agent = (text: string): ThreadItem => ({ type: 'agentMessage', id: 'a', text });
const command = (output: string, commandLine = 'npm test', cwd = '/work/app'): ThreadItem => ({
  type: 'commandExecution',
  id: 'c',
  command: commandLine,
  cwd,
  commandActions: [],
  status: 'completed',
  aggregatedOutput: output,
  exitCode: 1,
  durationMs: 2500,
});

// The renderer VS Code's Markdown preview uses, with raw HTML allowed as it is there.
const renderer = new MarkdownIt({ html: true });
const render = (markdown: string) => renderer.render(markdown);
/** The document's top-level blocks as the renderer reads them: headings' text, HTML and code blocks. */
function blocks(markdown: string) {
  const tokens = renderer.parse(markdown, {});
  const headings: string[] = [];
  const html: string[] = [];
  const code: string[] = [];
  tokens.forEach((token, i) => {
    if (token.type === 'heading_open' && token.level === 0) headings.push(tokens[i + 1].content);
    if (token.type === 'html_block') html.push(token.content);
    if (token.type === 'fence') code.push(token.content.replace(/\n$/, ''));
  });
  return { headings, html, code };
}

describe('a thread as Markdown', () => {
  it('has the title, each turn as a heading, prompts and answers quoted', () => {
    const md = threadMarkdown(thread([turn([user('Why does it fail?'), agent('Because **x**.')])]));
    assert.match(md, /^# Fix the build\n/);
    assert.match(md, /## Turn 1\n/);
    assert.match(md, /\*\*You\*\*\n\n> Why does it fail\?/);
    assert.match(md, /\*\*Threadline\*\*\n\n> Because \*\*x\*\*\./);
    const html = render(md);
    assert.match(html, /<blockquote>\s*<p>Because <strong>x<\/strong>\.<\/p>/);
  });

  it('folds a command output into <details> with a fenced block, colours dropped', () => {
    const md = threadMarkdown(thread([turn([command('\u001b[31mFAIL\u001b[0m a.test\nline 2\n')])]));
    assert.match(md, /\*\*Ran\*\* \(completed, exit 1, 2\.5 s\)/);
    assert.match(
      md,
      /<details><summary>Output \(2 lines\)<\/summary>\n\n```text\nFAIL a\.test\nline 2\n```\n\n<\/details>/,
    );
    assert.equal(md.includes('\u001b'), false);
  });

  it("says where a command ran when it was not the thread's folder (named at the top)", () => {
    const md = threadMarkdown(
      thread([turn([command('', 'ls', '/work/app/src'), command('', 'ls', '/elsewhere')])]),
    );
    assert.match(md, /^Thread `th-1` · in `\/work\/app`/m);
    assert.match(md, /\*\*Ran\*\* in `src` \(completed/);
    assert.match(md, /\*\*Ran\*\* in `\/elsewhere` \(completed/);
  });

  it('shows file changes as diffs, an added file as added lines', () => {
    const change: ThreadItem = {
      type: 'fileChange',
      id: 'f',
      status: 'completed',
      changes: [
        { path: 'src/a.ts', kind: { type: 'update', move_path: null }, diff: '@@ -1 +1 @@\n-old\n+new\n' },
        { path: '/work/app/NEW.md', kind: { type: 'add' }, diff: 'hello\nworld\n' },
        { path: '/work/apples/x', kind: { type: 'delete' }, diff: 'x\n' },
      ],
    };
    const md = threadMarkdown(thread([turn([change])]));
    assert.match(md, /Changed `src\/a\.ts`\n\n```diff\n@@ -1 \+1 @@\n-old\n\+new\n```/);
    assert.match(md, /Added `NEW\.md`\n\n```diff\n\+hello\n\+world\n```/, 'relative to the thread folder');
    assert.match(md, /Deleted `\/work\/apples\/x`\n\n```diff\n-x\n```/, 'a sibling folder is not inside');
  });

  it('keeps hostile model text inside its quote: no fake heading, no HTML, no escape from a fence', () => {
    const hostile = [
      '## Turn 99',
      '</details><script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '```',
      'unclosed fence',
    ].join('\n');
    const md = threadMarkdown(thread([turn([agent(hostile), user('after')])]));
    const top = blocks(md);
    assert.deepEqual(top.headings, ['Fix the build', 'Turn 1']);
    assert.deepEqual(top.html, []);
    const html = render(md);
    assert.doesNotMatch(html, /<script|<img/);
    assert.match(html, /<p><strong>You<\/strong><\/p>\s*<blockquote>\s*<p>after<\/p>/);
  });

  it('keeps code in model text readable: < stays < inside code spans and fences', () => {
    const md = threadMarkdown(
      thread([turn([agent('Use `a<b` here:\n```ts\nif (a < b) {}\n```\nand <b>bold</b>')])]),
    );
    assert.match(md, /> Use `a<b` here:/);
    assert.match(md, /> if \(a < b\) \{\}/);
    assert.match(md, /> and &lt;b>bold&lt;\/b>/);
  });

  it('picks fences longer than any backtick run, so output cannot close its block', () => {
    const output = 'before\n```\n</details>\n# not a heading\n````\nafter\n';
    const md = threadMarkdown(thread([turn([command(output, 'echo ```')])]));
    const top = blocks(md);
    assert.deepEqual(top.headings, ['Fix the build', 'Turn 1']);
    assert.ok(top.code.includes(output.replace(/\n$/, '')), JSON.stringify(top.code));
    assert.ok(top.code.includes('echo ```'));
    // The only HTML is the <details> around the output, opened and closed by the document itself.
    assert.deepEqual(
      top.html.map((h) => h.trim()),
      ['<details><summary>Output (6 lines)</summary>', '</details>'],
    );
    assert.equal(fence('a ````` b', 'x').split('\n')[0], '``````x');
  });

  it('escapes the title and inline names so they render as themselves', () => {
    const md = threadMarkdown(thread([], '# [link](javascript:x) <b>*hi*</b>\nsecond'));
    const first = md.split('\n')[0];
    assert.equal(first.startsWith('# \\#'), true, first);
    const html = render(first);
    assert.equal(html.trim(), '<h1># [link](javascript:x) &lt;b&gt;*hi*&lt;/b&gt; second</h1>');
    assert.equal(code('a `b` c'), '``a `b` c``');
    assert.equal(code('`x'), '`` `x ``');
    assert.equal(inline('1. *a*'), '1\\. \\*a\\*');
  });

  it('names a failed or interrupted turn and its error, and an unknown item type', () => {
    const failed: Turn = {
      ...turn([{ type: 'someNewThing', id: 'n' } as unknown as ThreadItem], 'failed'),
      error: { message: 'quota <exceeded>', codexErrorInfo: null, additionalDetails: null },
    };
    const md = threadMarkdown(thread([failed]));
    assert.match(md, /## Turn 1 \(failed\)/);
    assert.match(md, /\*someNewThing item\*/);
    assert.match(md, /> \*\*Error:\*\* quota \\<exceeded\\>/);
  });
});
