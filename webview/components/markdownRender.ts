// Model output as markdown: GFM-style (tables, strikethrough, autolinks) without raw HTML, code
// highlighted by highlight.js with a small set of languages, and split into top-level blocks so a
// streaming message re-renders only the block that is still growing.
import MarkdownIt from 'markdown-it';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/** Most used in model output first: the idle warm-up (warmUp.ts) compiles them in this order. */
const languages = {
  typescript,
  javascript,
  bash,
  python,
  json,
  diff,
  rust,
  go,
  java,
  c,
  cpp,
  css,
  xml,
  yaml,
  sql,
  markdown,
};
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['rs'], { languageName: 'rust' });

export const highlightedLanguages = Object.keys(languages);

/** Longer code is shown plain: highlighting it on every streamed frame would cost more than it shows. */
const maxHighlighted = 20_000;

export function highlight(code: string, language: string): string {
  const lang = language.trim().toLowerCase();
  if (code.length > maxHighlighted || !lang || !hljs.getLanguage(lang)) return escapeHtml(code);
  return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
}

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

// Code blocks carry their own copy button; the Markdown component handles its clicks.
md.renderer.rules.fence = (tokens, index) => {
  const token = tokens[index];
  const language = token.info.trim().split(/\s+/)[0] ?? '';
  const label = language ? `<span class="tl-code-lang">${escapeHtml(language)}</span>` : '';
  return (
    `<div class="tl-code">${label}<button type="button" class="tl-copy" aria-label="Copy code" title="Copy">` +
    `<span class="codicon codicon-copy" aria-hidden="true"></span></button>` +
    `<pre><code class="hljs">${highlight(token.content, language)}</code></pre></div>`
  );
};

export function renderMarkdown(source: string): string {
  return md.render(source);
}

/** The message's top-level blocks (paragraphs, lists, fences, tables) as their source text. */
export function splitBlocks(source: string): string[] {
  const normalized = source.replace(/\r\n?/g, '\n');
  const lines = normalized.split('\n');
  const tokens: ReturnType<typeof md.parse> = [];
  md.block.parse(normalized, md, {}, tokens);
  const blocks: string[] = [];
  for (const token of tokens) {
    if (token.level !== 0 || token.nesting === -1 || !token.map) continue;
    blocks.push(lines.slice(token.map[0], token.map[1]).join('\n'));
  }
  return blocks;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
