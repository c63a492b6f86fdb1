// `/` at the start of the composer: a menu of the built-in commands and the prompt files, in the
// same list and with the same keys as the `@` and `$` suggestions. Enter on a built-in runs it; on a
// prompt file it puts `/prompts:name ` in the composer for its arguments, and sending expands it.
import { useEffect, useMemo, useState, type KeyboardEvent, type RefObject } from 'react';
import { useHost } from '../components/hooks';
import type { CustomPrompt } from './customPrompts';
import { BUILTIN_COMMANDS, promptItems, rankSlash, slashQueryAt, type SlashItem } from './slashCommands';
import { suggestionKey, wrapIndex } from './suggestionKeys';

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

  return { items, results, active, update, choose, onKeyDown };
}

export function SlashSuggestions({
  results,
  active,
  onChoose,
}: {
  results: SlashItem[];
  active: number;
  onChoose: (item: SlashItem) => void;
}) {
  if (results.length === 0) return null;
  return (
    <ul className="tl-mentions tl-skills tl-slash" role="listbox" aria-label="Commands">
      {results.map((item, index) => (
        <li
          key={item.name}
          role="option"
          aria-selected={index === active}
          className={index === active ? 'tl-active' : undefined}
          title={
            item.kind === 'prompt' && item.prompt.argumentHint
              ? `/${item.name} ${item.prompt.argumentHint}: ${item.description}`
              : `/${item.name}: ${item.description}`
          }
          onMouseDown={(e) => (e.preventDefault(), onChoose(item))}
        >
          <span
            className={`codicon codicon-${item.kind === 'builtin' ? 'symbol-event' : item.prompt.source === 'workspace' ? 'folder' : 'account'}`}
            aria-hidden="true"
          />{' '}
          <span className="tl-skill-name">/{item.name}</span>
          {item.kind === 'prompt' && item.prompt.argumentHint && (
            <span className="tl-slash-hint"> {item.prompt.argumentHint}</span>
          )}{' '}
          <span className="tl-skill-description">{item.description}</span>
        </li>
      ))}
    </ul>
  );
}
