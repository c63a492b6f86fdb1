// `@` context in the composer: the tokens a prompt's text names (`@src/a.ts:10-20`, `@src/`,
// `@problems`, `@terminal`, `@sym:Name`…), read back from the text when it is sent, so a draft
// kept through a reload still attaches what it names; and the ranking of the one `@` list.
import type { ContextMention, MentionSuggestion } from '../messages';

// `@`, then plain characters and quoted runs (a path with spaces) up to the next space.
const TOKEN = /(^|\s)@((?:[^\s"]|"(?:[^"\\]|\\.)*")+)/g;

/** The context `@` tokens in `text` name, once each, in order. Symbols picked from the list keep their place. */
export function contextMentions(
  text: string,
  symbols: ReadonlyMap<string, MentionSuggestion['location']> = new Map(),
): ContextMention[] {
  const found = new Map<string, ContextMention>();
  for (const match of text.matchAll(TOKEN)) {
    const mention = parseToken(match[2]!, symbols);
    if (mention) found.set(JSON.stringify(mention), mention);
  }
  return [...found.values()];
}

function parseToken(
  token: string,
  symbols: ReadonlyMap<string, MentionSuggestion['location']>,
): ContextMention | undefined {
  // A quoted path (it has spaces), then maybe a line range: `"my file.ts":3-5`.
  const quoted = /^("(?:[^"\\]|\\.)*")(.*)$/.exec(token);
  if (quoted) {
    const path = unquote(quoted[1]!);
    if (!path) return undefined;
    if (!quoted[2]) return fileOrFolder(path);
    if (quoted[2] === '/') return { kind: 'folder', path };
    const lines = /^:(\d+)(?:-(\d+))?$/.exec(quoted[2]);
    return lines ? selection(path, lines[1]!, lines[2]) : undefined;
  }
  // Punctuation after a token ends the sentence, not the path.
  const text = token.replace(/[.,;!?)]+$/, '');
  if (text === 'terminal') return { kind: 'terminal' };
  if (text === 'problems') return { kind: 'problems' };
  if (text.startsWith('problems:') && text.length > 9) {
    const path = text.startsWith('"', 9) ? unquote(text.slice(9)) : text.slice(9);
    return path ? { kind: 'problems', path } : undefined;
  }
  if (text.startsWith('sym:') && text.length > 4) {
    const name = text.slice(4);
    const location = symbols.get(name);
    return location ? { kind: 'symbol', name, location } : { kind: 'symbol', name };
  }
  const lines = /^(.+?):(\d+)(?:-(\d+))?$/.exec(text);
  if (lines) return selection(lines[1]!, lines[2]!, lines[3]);
  return text ? fileOrFolder(text) : undefined;
}

function selection(path: string, start: string, end: string | undefined): ContextMention | undefined {
  const startLine = Number(start);
  const endLine = end === undefined ? startLine : Number(end);
  return startLine >= 1 && endLine >= startLine ? { kind: 'selection', path, startLine, endLine } : undefined;
}

function fileOrFolder(path: string): ContextMention {
  return path.length > 1 && /[\\/]$/.test(path)
    ? { kind: 'folder', path: path.slice(0, -1) }
    : { kind: 'file', path };
}

function unquote(text: string): string | undefined {
  try {
    return JSON.parse(text) as string;
  } catch {
    return undefined;
  }
}

/** A path as a token: quoted when it has spaces or quotes, as file mentions insert it. */
export const tokenPath = (path: string) => (/[\s"]/.test(path) ? JSON.stringify(path) : path);

/**
 * The `@` list for `query`: how well the label matches first (starts with it, contains it, has its
 * letters in order), then the editor's context before files, folders and symbols, then the order the
 * host gave (the file search's own ranking). An empty query keeps the host's order, context first.
 */
export function rankMentions(
  query: string,
  suggestions: readonly MentionSuggestion[],
  limit = 12,
): (MentionSuggestion & { indices: number[] })[] {
  const q = query.toLowerCase();
  if (!q) return suggestions.slice(0, limit).map((suggestion) => ({ ...suggestion, indices: [] }));
  const kindOrder = { context: 0, file: 1, folder: 2, symbol: 3 };
  return suggestions
    .map((suggestion, order) => {
      const match = matchLabel(suggestion, q);
      return match && { suggestion: { ...suggestion, indices: match.indices }, tier: match.tier, order };
    })
    .filter((entry) => !!entry)
    .sort(
      (a, b) =>
        a.tier - b.tier || kindOrder[a.suggestion.kind] - kindOrder[b.suggestion.kind] || a.order - b.order,
    )
    .slice(0, limit)
    .map(({ suggestion }) => suggestion);
}

/** 0: the label (or its last path part) starts with the query; 1: contains it; 2: has its letters in order. */
function matchLabel(suggestion: MentionSuggestion, q: string): { tier: number; indices: number[] } | null {
  const label = suggestion.label.toLowerCase();
  const slash = label.replace(/\/$/, '').lastIndexOf('/') + 1;
  const span = (at: number) => Array.from({ length: q.length }, (_, i) => at + i);
  if (label.startsWith(q)) return { tier: 0, indices: span(0) };
  if (slash > 0 && label.startsWith(q, slash)) return { tier: 0, indices: span(slash) };
  const at = label.indexOf(q);
  if (at >= 0) return { tier: 1, indices: span(at) };
  const indices: number[] = [];
  for (let i = 0; i < label.length && indices.length < q.length; i++) {
    if (label[i] === q[indices.length]) indices.push(i);
  }
  if (indices.length < q.length) return null;
  // The file search's own highlights where it gave them (it prefers matches in the file name).
  return { tier: 2, indices: suggestion.indices?.length ? suggestion.indices : indices };
}
