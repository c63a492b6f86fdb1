// The value of one word of a parsed command line, when it is a literal: what bash passes to the
// program, quotes and escapes removed. Null for anything bash would expand or could read another
// way: `$`, backticks, globs, braces, `~`, `#`, ANSI-C or locale strings.
import type { Node } from './bashParser';

// Outside quotes, after escaped characters are taken out.
const UNQUOTED_SPECIAL = /[$`*?[\]{}~#()<>&|;'"\s!]/;

export function literalWord(node: Node): string | null {
  const text = node.text;
  switch (node.type) {
    case 'word':
    case 'number':
      return unquoted(text);
    case 'raw_string':
      return text.length >= 2 && text.startsWith("'") && text.endsWith("'") ? text.slice(1, -1) : null;
    case 'string':
      return doubleQuoted(text);
    case 'concatenation':
      return concatenation(node);
    default:
      return null;
  }
}

function unquoted(text: string): string | null {
  if (text === '' || UNQUOTED_SPECIAL.test(text.replace(/\\[^]/g, ''))) return null;
  // A trailing lone backslash has nothing to escape: bash and the grammar may disagree on it.
  if (/(?:^|[^\\])(?:\\\\)*\\$/.test(text)) return null;
  return text.replace(/\\\n/g, '').replace(/\\([^])/g, '$1');
}

function doubleQuoted(text: string): string | null {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return null;
  const inner = text.slice(1, -1);
  // Any `$` or backtick, escaped or not: expansions are never literal, and we do not guess.
  if (/[$`]/.test(inner)) return null;
  if (/(?:^|[^\\])(?:\\\\)*\\$/.test(inner)) return null;
  return inner.replace(/\\\n/g, '').replace(/\\(["\\])/g, '$1');
}

function concatenation(node: Node): string | null {
  let value = '';
  let at = node.startIndex;
  for (const part of node.children) {
    if (!part || part.startIndex !== at) return null;
    const word = literalWord(part);
    if (word === null) return null;
    value += word;
    at = part.endIndex;
  }
  return at === node.endIndex ? value : null;
}

// A plain pattern of `*` and `?` in a bare word: no brackets, braces, escapes or quotes to misread.
const SIMPLE_GLOB = /^[\w./-]*[*?][\w./*?-]*$/;

/** The pattern of a simple glob word (`*.md`, `src/*.ts`), whose expansion bash leaves to the files. */
export function globWord(node: Node): string | null {
  return node.type === 'word' && SIMPLE_GLOB.test(node.text) ? node.text : null;
}
