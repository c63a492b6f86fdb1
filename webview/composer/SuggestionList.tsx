// The list a composer trigger (`@`, and any other that offers choices while typing) shows above the
// input: rows with an icon, a label with the matched letters in bold and a muted detail; the
// highlighted row stays in view as the arrows move it. Keys are suggestionKeys' job; a click
// chooses without taking the focus from the input.
import { useEffect, useRef } from 'react';

export interface SuggestionRow {
  key: string;
  /** A codicon name. */
  icon: string;
  label: string;
  /** Offsets into label to show in bold. */
  indices?: number[];
  detail?: string;
  /** The tooltip, e.g. a full path. */
  title?: string;
}

export function SuggestionList({
  label,
  rows,
  active,
  onChoose,
  className,
}: {
  /** The listbox's accessible name. */
  label: string;
  rows: SuggestionRow[];
  active: number;
  onChoose: (index: number) => void;
  className?: string;
}) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const row = list.current?.children[active] as HTMLElement | undefined;
    row?.scrollIntoView?.({ block: 'nearest' });
  }, [active, rows]);
  if (rows.length === 0) return null;
  return (
    <ul
      ref={list}
      className={`tl-mentions${className ? ` ${className}` : ''}`}
      role="listbox"
      aria-label={label}
    >
      {rows.map((row, index) => (
        <li
          key={row.key}
          role="option"
          aria-selected={index === active}
          className={index === active ? 'tl-active' : undefined}
          title={row.title}
          onMouseDown={(e) => (e.preventDefault(), onChoose(index))}
        >
          <span className={`codicon codicon-${row.icon}`} aria-hidden="true" />{' '}
          <Highlighted text={row.label} indices={row.indices ?? []} />
          {row.detail && <span className="tl-suggestion-detail"> {row.detail}</span>}
        </li>
      ))}
    </ul>
  );
}

/** A label with the characters the query matched in bold. */
export function Highlighted({ text, indices }: { text: string; indices: number[] }) {
  const matched = new Set(indices);
  const runs: { text: string; hit: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const hit = matched.has(i);
    const last = runs.at(-1);
    if (last && last.hit === hit) last.text += text[i];
    else runs.push({ text: text[i]!, hit });
  }
  return (
    <span className="tl-mention-path">
      {runs.map((run, i) => (run.hit ? <b key={i}>{run.text}</b> : <span key={i}>{run.text}</span>))}
    </span>
  );
}
