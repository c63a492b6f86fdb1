// The frame every prompt card shares: a focusable group with a title, "1 of 3" when prompts queue, and
// single-key shortcuts that work only while the card (not a text field in it, and never the composer)
// has the focus: Enter for the primary answer, Escape to decline, letters for the rest. The answer
// buttons are one toolbar reached with the arrow keys, so the card is a single Tab stop: Shift+Tab from
// the composer lands on the card itself, never on "Cancel turn".
import type { KeyboardEvent, ReactNode, Ref } from 'react';
import { FolderPath } from '../components/FolderPath';
import { keyName, type Shortcut } from './answers';
import type { Choice } from './decisions';

export interface PromptCardProps {
  icon: string;
  title: string;
  /** "1 of 3" when several prompts wait. */
  position?: string;
  keys: Partial<Record<Shortcut, () => void>>;
  cardRef?: Ref<HTMLElement>;
  /** What is asked; scrolls when long, so the answers below it stay in view. */
  children: ReactNode;
  /** The answer buttons, always visible. */
  actions: ReactNode;
}

export function PromptCard({ icon, title, position, keys, cardRef, children, actions }: PromptCardProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.nativeEvent.isComposing) return;
    const target = event.target as HTMLElement;
    // Typing in a field of the card is typing, not a shortcut; a focused button answers Enter itself.
    if (target.matches('input:not([type=radio]), textarea, select')) return;
    if (event.key === 'Enter' && target.matches('button')) return;
    if (target === event.currentTarget && (event.key === 'ArrowDown' || event.key === 'ArrowRight')) {
      event.preventDefault();
      return target.querySelector<HTMLElement>('[role=toolbar] button')?.focus();
    }
    const key = (event.key.length === 1 ? event.key.toUpperCase() : event.key) as Shortcut;
    const action = keys[key];
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    action();
  };
  return (
    <section
      ref={cardRef}
      className="tl-prompt"
      tabIndex={0}
      aria-label={position ? `${title} (${position})` : title}
      onKeyDown={onKeyDown}
    >
      <div className="tl-prompt-title">
        <span className={`codicon codicon-${icon}`} aria-hidden="true" />
        <span className="tl-prompt-heading">{title}</span>
        {position && <span className="tl-prompt-count">{position}</span>}
      </div>
      <div className="tl-prompt-body">{children}</div>
      {actions}
    </section>
  );
}

/** Where a command runs. */
export function WorkingFolder({ path, root }: { path: string; root: string | undefined }) {
  return (
    <div className="tl-card-meta tl-muted tl-prompt-cwd" aria-label={`Working folder ${path}`}>
      <span>
        <span className="codicon codicon-folder" aria-hidden="true" /> <FolderPath path={path} root={root} />
      </span>
    </div>
  );
}

/** A key as the button shows it (Enter as its symbol, which every font has in the codicons). */
export function KeyHint({ shortcut }: { shortcut: Shortcut }) {
  return shortcut === 'Enter' ? (
    <kbd aria-hidden="true">
      <span className="codicon codicon-newline" />
    </kbd>
  ) : (
    <kbd aria-hidden="true">{keyName(shortcut)}</kbd>
  );
}

/**
 * What the "always" answers of an approval would store, exactly, each in a code block that wraps (never
 * cut). It goes in the card's body, which scrolls, so the answer buttons always stay in sight.
 */
export function AnswerRules<D>({ choices }: { choices: Choice<D>[] }) {
  return choices.flatMap((c) =>
    c.rule
      ? [
          <div key={c.rule.text} className="tl-prompt-rule">
            <span className="tl-muted">{c.rule.caption}</span>
            <pre>
              <code>{c.rule.text}</code>
            </pre>
          </div>,
        ]
      : [],
  );
}

/**
 * The answers of an approval, from the one table: each button with its key shown, announced and in
 * its tooltip. `children` go before the buttons.
 */
export function ChoiceButtons<D>({
  choices,
  onChoose,
  children,
}: {
  choices: Choice<D>[];
  onChoose: (d: D) => void;
  children?: ReactNode;
}) {
  return (
    <>
      <div className="tl-prompt-buttons" role="toolbar" aria-label="Answers" onKeyDown={moveAlongToolbar}>
        {children}
        {choices.map((choice) => (
          <button
            key={choice.label}
            type="button"
            tabIndex={-1}
            className={choice.primary ? 'tl-button' : 'tl-button tl-secondary'}
            data-answer={choice.kind}
            aria-keyshortcuts={choice.shortcut}
            title={choice.shortcut ? `${choice.hint} (${keyName(choice.shortcut)})` : choice.hint}
            onClick={() => onChoose(choice.decision)}
          >
            {choice.label}
            {choice.shortcut && <KeyHint shortcut={choice.shortcut} />}
          </button>
        ))}
      </div>
    </>
  );
}

/** The shortcut map of a card's choices. */
export function choiceKeys<D>(choices: Choice<D>[], onChoose: (d: D) => void): PromptCardProps['keys'] {
  return Object.fromEntries(
    choices.flatMap((c) => (c.shortcut ? [[c.shortcut, () => onChoose(c.decision)]] : [])),
  );
}

/** Arrow keys, Home and End move between a toolbar's buttons (which are out of the Tab order). */
function moveAlongToolbar(event: KeyboardEvent<HTMLElement>) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (step === undefined && event.key !== 'Home' && event.key !== 'End') return;
  const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>('button:not(:disabled)')];
  const at = buttons.indexOf(event.target as HTMLElement);
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? buttons.length - 1
        : (at + step! + buttons.length) % buttons.length;
  event.preventDefault();
  event.stopPropagation();
  buttons[next]?.focus();
}
