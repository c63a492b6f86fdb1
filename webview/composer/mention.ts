// Finding and replacing the `@query` the caret is in, for file and context mentions.

export interface MentionQuery {
  /** Where the `@` is. */
  start: number;
  /** The text typed after it, up to the caret. */
  query: string;
}

/** The mention being typed at `caret`: an `@` at the start or after whitespace, no space since. */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return null;
  return { start: caret - match[2].length - 1, query: match[2] };
}

/** The text with the mention replaced by the path, and where the caret goes after it. */
export function insertMention(
  text: string,
  mention: MentionQuery,
  caret: number,
  path: string,
): { text: string; caret: number } {
  return replaceMention(text, mention, caret, /\s/.test(path) ? JSON.stringify(path) : path);
}

/** The text with the mention replaced by `token` and a space, and where the caret goes after it. */
export function replaceMention(
  text: string,
  mention: MentionQuery,
  caret: number,
  token: string,
): { text: string; caret: number } {
  const inserted = `${token} `;
  return {
    text: text.slice(0, mention.start) + inserted + text.slice(caret),
    caret: mention.start + inserted.length,
  };
}
