// The user's prompt files (`$THREADLINE_HOME/prompts/*.md`, `.threadline/prompts/*.md`), the files
// Codex users keep: an optional front matter with `description` and `argument-hint`, then the text
// sent. Arguments fill placeholders as Codex fills them: `$1`…`$9` and `$ARGUMENTS` from positional
// arguments, or `$NAME` from `NAME=value` pairs when the text names any; `$$` stays as it is. A
// workspace's file is someone else's text: it only ever becomes the user's message, and nothing in
// its front matter but those two fields is read. Pure: the extension reads the files, the composer
// expands them.

export interface CustomPrompt {
  name: string;
  description: string | null;
  argumentHint: string | null;
  /** The text after the front matter. */
  body: string;
  /** `user`: $THREADLINE_HOME/prompts; `workspace`: the workspace's .threadline/prompts. */
  source: 'user' | 'workspace';
}

export function parsePromptFile(name: string, content: string, source: CustomPrompt['source']): CustomPrompt {
  const text = content.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const front = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(text);
  const fields = new Map<string, string>();
  for (const line of front?.[1].split('\n') ?? []) {
    const field = /^([\w-]+)\s*:\s*(.*)$/.exec(line);
    if (field) fields.set(field[1].toLowerCase(), unquote(field[2].trim()));
  }
  const field = (...keys: string[]) => keys.map((k) => fields.get(k)).find((v) => v) ?? null;
  return {
    name,
    description: field('description'),
    argumentHint: field('argument-hint', 'argument_hint'),
    body: front ? text.slice(front[0].length) : text,
    source,
  };
}

const unquote = (value: string) => (/^(["']).*\1$/.test(value) ? value.slice(1, -1) : value);

/** Words of the arguments: whitespace separates them, double quotes keep one together. */
export function splitArguments(text: string): string[] {
  return [...text.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((word) => word[0].replace(/"([^"]*)"/g, '$1'));
}

const NAMED = /\$([A-Z][A-Z0-9_]*)/g;

/** The `$NAME` placeholders the text uses (not `$ARGUMENTS`, not after `$$`). */
export function namedPlaceholders(body: string): string[] {
  const names = new Set<string>();
  for (const match of body.replace(/\$\$/g, '').matchAll(NAMED))
    if (match[1] !== 'ARGUMENTS') names.add(match[1]);
  return [...names];
}

/** The prompt's text with its placeholders filled, or what is wrong with the arguments. */
export function expandPrompt(prompt: CustomPrompt, argsText: string): { text: string } | { error: string } {
  const args = splitArguments(argsText);
  const named = namedPlaceholders(prompt.body);
  const command = `/prompts:${prompt.name}`;
  if (named.length > 0) {
    const values = new Map<string, string>();
    for (const arg of args) {
      const pair = /^([A-Za-z_][\w]*)=([\s\S]*)$/.exec(arg);
      if (!pair)
        return { error: `${command} takes NAME=value arguments (${named.join(', ')}); "${arg}" is not one` };
      values.set(pair[1], pair[2]);
    }
    const missing = named.filter((name) => !values.has(name));
    if (missing.length) return { error: `${command} needs ${missing.map((n) => `${n}=…`).join(' ')}` };
    return {
      text: fill(prompt.body, (token) => (token === 'ARGUMENTS' ? argsText.trim() : values.get(token))),
    };
  }
  return {
    text: fill(prompt.body, (token) =>
      token === 'ARGUMENTS'
        ? args.join(' ')
        : /^[1-9]$/.test(token)
          ? (args[Number(token) - 1] ?? '')
          : undefined,
    ),
  };
}

/** One pass over the text, so an argument containing `$1` is never expanded again. */
function fill(body: string, value: (token: string) => string | undefined): string {
  return body.replace(/\$\$|\$([1-9]|[A-Z][A-Z0-9_]*)/g, (whole, token: string | undefined) =>
    token === undefined ? whole : (value(token) ?? whole),
  );
}
