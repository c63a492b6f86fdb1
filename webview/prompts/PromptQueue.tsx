// The prompts of the shown thread, above the composer (never in its place): the oldest pending one as a
// card, "1 of 3" when more wait, and for a moment how each settled one ended. A card never takes the
// focus when it appears, so typing in the composer goes on; after an answer given in a card the focus
// goes to the next card, or back to the composer.
import { useEffect, useRef } from 'react';
import { useStore, useView } from '../components/hooks';
import type { PromptView } from '../messages';
import type { SettledPrompt } from '../store/prompts';
import { CommandPrompt } from './CommandPrompt';
import { FileChangePrompt } from './FileChangePrompt';
import { QuestionPrompt } from './QuestionPrompt';
import { McpToolPrompt } from './McpToolPrompt';
import { mcpChoices, outcomeLabel } from './decisions';
import { useAnswer, usePrompts } from './usePrompts';

/** How long a settled prompt's outcome stays. */
export const outcomeShownMs = 3000;

export function PromptQueue({ threadId }: { threadId: string }) {
  const state = usePrompts();
  const baseAnswer = useAnswer();
  const card = useRef<HTMLElement>(null);
  const refocus = useRef(false);
  const shown = state.threadId === threadId;
  const current = shown ? state.pending[0] : undefined;

  const answer: typeof baseAnswer = (key, result) => {
    refocus.current = !!card.current?.contains(document.activeElement);
    baseAnswer(key, result);
  };

  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    if (card.current) card.current.focus();
    else document.querySelector<HTMLElement>('.tl-composer textarea')?.focus();
  }, [current?.key]);

  if (!shown || (!current && state.settled.length === 0)) return null;
  const position = state.pending.length > 1 ? `1 of ${state.pending.length}` : undefined;
  return (
    <div className="tl-prompts" aria-live="polite">
      {state.settled.map((settled) => (
        <Outcome key={settled.prompt.key} settled={settled} />
      ))}
      {current && (
        <Card key={current.key} prompt={current} position={position} answer={answer} cardRef={card} />
      )}
    </div>
  );
}

function Card(props: {
  prompt: PromptView;
  position?: string;
  answer: ReturnType<typeof useAnswer>;
  cardRef: React.Ref<HTMLElement>;
}) {
  const { prompt, ...rest } = props;
  switch (prompt.kind) {
    case 'commandExecution':
      return <CommandPrompt prompt={prompt} {...rest} />;
    case 'fileChange':
      return <FileChangePrompt prompt={prompt} {...rest} />;
    case 'userInput': {
      const choices = mcpChoices(prompt.params.questions);
      return choices ? (
        <McpToolPrompt prompt={prompt} choices={choices} {...rest} />
      ) : (
        <QuestionPrompt prompt={prompt} {...rest} />
      );
    }
  }
}

function Outcome({ settled }: { settled: SettledPrompt }) {
  const store = useStore();
  const key = settled.prompt.key;
  useEffect(() => {
    const timer = setTimeout(() => store.dispatchPrompts({ type: 'dismiss', key }), outcomeShownMs);
    return () => clearTimeout(timer);
  }, [store, key]);
  const turnStatus = useView((s) => s.turns[settled.prompt.turnId]?.status);
  const label = outcomeLabel(settled.prompt.kind, settled.outcome, turnStatus);
  const declined = /^(Declined|Denied|Cancelled)/.test(label);
  return (
    <div className="tl-prompt-outcome" role="status" data-prompt-key={key}>
      <span className={`codicon codicon-${declined ? 'circle-slash' : 'check'}`} aria-hidden="true" />
      <span className="tl-prompt-outcome-label">{label}</span>
      <span className="tl-muted tl-prompt-outcome-what">{summary(settled.prompt)}</span>
    </div>
  );
}

function summary(prompt: PromptView): string {
  switch (prompt.kind) {
    case 'commandExecution':
      return prompt.params.command ?? '';
    case 'fileChange':
      return 'file change';
    case 'userInput':
      return prompt.params.questions.map((q) => q.header).join(', ');
  }
}
