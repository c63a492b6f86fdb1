// `/` at the start of the composer: the built-in commands and the user's prompt files, ranked for
// what is typed after the slash, and a sent draft read as a command. Pure: the composer acts on it.
import type { CustomPrompt } from './customPrompts';

export type BuiltinCommand = 'new' | 'plan' | 'review' | 'compact' | 'goal' | 'undo' | 'model' | 'status';

export type SlashItem =
  | { kind: 'builtin'; name: BuiltinCommand; description: string }
  | { kind: 'prompt'; name: string; description: string; prompt: CustomPrompt };

export const BUILTIN_COMMANDS: readonly SlashItem[] = [
  { kind: 'builtin', name: 'new', description: 'Start a new thread' },
  { kind: 'builtin', name: 'plan', description: 'Plan first, change nothing' },
  {
    kind: 'builtin',
    name: 'review',
    description: 'Review uncommitted changes',
  },
  { kind: 'builtin', name: 'compact', description: 'Summarize to free context' },
  { kind: 'builtin', name: 'goal', description: 'Set the thread’s goal (alone: clear it)' },
  { kind: 'builtin', name: 'undo', description: "Undo the last turn's changes" },
  { kind: 'builtin', name: 'model', description: 'Choose provider and model' },
  { kind: 'builtin', name: 'status', description: 'Model, context and limits' },
];

/** Prompt files are called as Codex calls them: `/prompts:<name>`. */
export const PROMPT_PREFIX = 'prompts:';

export function promptItems(prompts: CustomPrompt[]): SlashItem[] {
  return prompts.map((prompt) => ({
    kind: 'prompt',
    name: `${PROMPT_PREFIX}${prompt.name}`,
    description:
      prompt.description ??
      (prompt.source === 'workspace' ? 'Prompt file of this workspace' : 'Your prompt file'),
    prompt,
  }));
}

/** The command being typed: the draft is `/` and a name so far, the caret at its end. */
export function slashQueryAt(text: string, caret: number): string | null {
  const match = /^\/([\w:.-]*)$/.exec(text.slice(0, caret));
  return match && caret === text.length ? match[1] : null;
}

/** Names that start with the query first, then those that contain it; built-ins before prompts. */
export function rankSlash(items: readonly SlashItem[], query: string, limit = 12): SlashItem[] {
  const q = query.toLowerCase();
  const bare = (item: SlashItem) => item.name.toLowerCase().replace(PROMPT_PREFIX, '');
  const rank = (item: SlashItem) =>
    item.name.toLowerCase().startsWith(q) || bare(item).startsWith(q)
      ? 0
      : item.name.toLowerCase().includes(q)
        ? 1
        : -1;
  return items
    .map((item, index) => ({ item, index, rank: rank(item) }))
    .filter(({ rank }) => rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .slice(0, limit)
    .map(({ item }) => item);
}

/** A draft that names a command: `/name` and what follows it (a path like `/usr/bin x` is not one). */
export function parseSlash(
  text: string,
  items: readonly SlashItem[],
): { item: SlashItem; args: string } | null {
  const match = /^\/([\w:.-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const item = match && items.find((candidate) => candidate.name === match[1]);
  return item ? { item, args: (match[2] ?? '').trim() } : null;
}
