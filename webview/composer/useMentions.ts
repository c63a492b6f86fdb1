// The `@` list: asks the host what the query could mean (the editor's context, files, folders,
// symbols), ranks it (contextMention), and answers arrows, Enter/Tab and Escape. A chosen file
// inserts its path; anything else an `@` token that the prompt carries as context when sent.
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { UserInput } from '../../server/protocol/userInput';
import type { MentionSuggestion } from '../messages';
import { useHost } from '../components/hooks';
import { contextMentions, rankMentions } from './contextMention';
import { mentionAt, replaceMention, type MentionQuery } from './mention';
import { suggestionKey, wrapIndex } from './suggestionKeys';
import type { SuggestionRow } from './SuggestionList';

export function useMentions(draft: string, input: RefObject<HTMLTextAreaElement | null>) {
  const host = useHost();
  const [mention, setMention] = useState<MentionQuery | null>(null);
  const [results, setResults] = useState<ReturnType<typeof rankMentions>>([]);
  const [active, setActive] = useState(0);
  // Symbols chosen from the list, by name: sending then needs no second lookup.
  const symbols = useRef(new Map<string, MentionSuggestion['location']>());

  const update = () => {
    const el = input.current;
    const next = el ? mentionAt(el.value, el.selectionStart ?? el.value.length) : null;
    setMention((prev) => (prev?.start === next?.start && prev?.query === next?.query ? prev : next));
  };

  useEffect(() => {
    if (!mention) {
      setResults([]);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      host.request('suggestMentions', { query: mention.query }).then(
        (r) => current && (setResults(rankMentions(mention.query, r.suggestions)), setActive(0)),
        () => current && setResults([]),
      );
    }, 80);
    return () => ((current = false), clearTimeout(timer));
  }, [host, mention]);

  const choose = (suggestion: MentionSuggestion, setDraft: (text: string) => void) => {
    const el = input.current;
    if (!mention || !el) return;
    const next = replaceMention(draft, mention, el.selectionStart ?? draft.length, suggestion.insert);
    if (suggestion.kind === 'symbol' && suggestion.location)
      symbols.current.set(suggestion.insert.replace(/^@sym:/, ''), suggestion.location);
    setDraft(next.text);
    setMention(null);
    requestAnimationFrame(() => el.setSelectionRange(next.caret, next.caret));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>, setDraft: (text: string) => void) =>
    suggestionKey(event, results.length, {
      move: (step) => setActive((i) => wrapIndex(i, step, results.length)),
      take: () => choose(results[Math.min(active, results.length - 1)]!, setDraft),
      close: () => setMention(null),
    });

  /** The input items for the context `text` names, read by the host now; none when it names none. */
  const attached = async (text: string): Promise<UserInput[]> => {
    const mentions = contextMentions(text, symbols.current);
    if (mentions.length === 0) return [];
    return (await host.request('resolveMentions', { mentions })).input;
  };

  const rows: SuggestionRow[] = results.map((s) => ({
    key: `${s.kind}:${s.insert}:${s.label}`,
    icon: s.icon,
    label: s.label,
    indices: s.indices,
    detail: s.detail,
    title: s.detail ? `${s.label} — ${s.detail}` : s.label,
  }));

  return { results, rows, active, update, choose, onKeyDown, attached };
}
