// `/` at the start of the composer: a menu of the built-in commands and the prompt files, in the
// same list (SuggestionList) and with the same keys as the `@` and `$` suggestions. Enter on a
// built-in runs it; on a prompt file it puts `/prompts:name ` in the composer for its arguments, and
// sending expands it.
import { useEffect, useMemo, useState, type KeyboardEvent, type RefObject } from 'react';
import { useHost } from '../components/hooks';
import type { CustomPrompt } from './customPrompts';
import { BUILTIN_COMMANDS, promptItems, rankSlash, slashQueryAt, type SlashItem } from './slashCommands';
import { suggestionKey, wrapIndex } from './suggestionKeys';
import { SuggestionList, type SuggestionRow } from './SuggestionList';

export function useSlashCommands(
  input: RefObject<HTMLTextAreaElement | null>,
  run: (item: SlashItem) => void,
  setDraft: (text: string) => void,
) {
  const host = useHost();
  const [prompts, setPrompts] = useState<CustomPrompt[] | null>(null);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);

  const update = () => {
    const el = input.current;
    setQuery(el ? slashQueryAt(el.value, el.selectionStart ?? el.value.length) : null);
  };

  // The files are read when the menu first opens, and again each time it opens anew (a file added
  // since shows without a reload).
  const opened = query !== null;
  useEffect(() => {
    if (!opened) return;
    let current = true;
    host.request('listPrompts', {}).then(
      (r) => current && setPrompts(r.prompts),
      () => current && setPrompts([]),
    );
    return () => void (current = false);
  }, [host, opened]);

  useEffect(() => setActive(0), [query]);

  const items = useMemo(() => [...BUILTIN_COMMANDS, ...promptItems(prompts ?? [])], [prompts]);
  const results = query === null ? [] : rankSlash(items, query);

  const choose = (item: SlashItem) => {
    setQuery(null);
    if (item.kind === 'builtin') return run(item);
    const text = `/${item.name} `;
    setDraft(text);
    requestAnimationFrame(() => input.current?.setSelectionRange(text.length, text.length));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) =>
    suggestionKey(event, results.length, {
      move: (step) => setActive((i) => wrapIndex(i, step, results.length)),
      take: () => choose(results[Math.min(active, results.length - 1)]),
      close: () => setQuery(null),
    });

  return { items, results, query: query ?? '', active, update, choose, onKeyDown };
}

/** The menu's rows, in the shared list's shape; the letters typed after `/` in bold. */
export function slashRows(items: SlashItem[], query: string): SuggestionRow[] {
  return items.map((item) => {
    const label = `/${item.name}`;
    const at = query ? label.toLowerCase().indexOf(query.toLowerCase(), 1) : -1;
    const hint = item.kind === 'prompt' ? item.prompt.argumentHint : null;
    return {
      key: item.name,
      icon:
        item.kind === 'builtin' ? 'symbol-event' : item.prompt.source === 'workspace' ? 'folder' : 'account',
      label,
      indices: at < 0 ? [] : [...query].map((_, i) => at + i),
      detail: hint ? `${hint} · ${item.description}` : item.description,
      title: hint ? `${label} ${hint}: ${item.description}` : `${label}: ${item.description}`,
    };
  });
}

export function SlashSuggestions({
  results,
  query,
  active,
  onChoose,
}: {
  results: SlashItem[];
  query: string;
  active: number;
  onChoose: (item: SlashItem) => void;
}) {
  return (
    <SuggestionList
      label="Commands"
      className="tl-slash"
      rows={slashRows(results, query)}
      active={active}
      onChoose={(index) => onChoose(results[index]!)}
    />
  );
}
