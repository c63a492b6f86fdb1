// The agent's questions (request_user_input): each with its header and text, its options as radio
// choices, a free-text answer where `isOther` is set (or no options are given), a masked field where
// `isSecret` is. Submit sends every answer in the schema's shape.
import { useState, type FormEvent } from 'react';
import type { ToolRequestUserInputQuestion } from '../../server/protocol/toolCallItems';
import { KeyHint, PromptCard } from './PromptCard';
import type { CardProps } from './cardProps';

/** The radio value of "my own answer". */
const other = '\u0000other';

interface Answer {
  choice?: string;
  text: string;
}

function answerOf(question: ToolRequestUserInputQuestion, answer: Answer | undefined): string {
  if (!answer) return '';
  if (!question.options?.length || answer.choice === other) return answer.text.trim() ? answer.text : '';
  return answer.choice ?? '';
}

export function QuestionPrompt({ prompt, position, answer, cardRef }: CardProps<'userInput'>) {
  const questions = prompt.params.questions;
  const [answers, setAnswers] = useState<Record<string, Answer>>({});
  const complete = questions.every((q) => answerOf(q, answers[q.id]) !== '');
  const set = (id: string, change: Partial<Answer>) =>
    setAnswers((all) => ({ ...all, [id]: { ...(all[id] ?? { text: '' }), ...change } }));
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!complete) return;
    answer(prompt.key, {
      answers: Object.fromEntries(questions.map((q) => [q.id, { answers: [answerOf(q, answers[q.id])] }])),
    });
  };
  const formId = `${prompt.key}:form`;
  const title = questions.length === 1 ? questions[0].header || 'The agent asks' : 'The agent asks';
  return (
    <PromptCard
      icon="question"
      title={title}
      position={position}
      keys={{ Enter: submit }}
      cardRef={cardRef}
      actions={
        <div className="tl-prompt-buttons">
          <button
            type="submit"
            form={formId}
            className="tl-button"
            disabled={!complete}
            aria-keyshortcuts="Enter"
          >
            Submit
            <KeyHint shortcut="Enter" />
          </button>
        </div>
      }
    >
      <form id={formId} className="tl-prompt-questions" onSubmit={submit}>
        {questions.map((q) => {
          const name = `${prompt.key}:${q.id}`;
          const current = answers[q.id];
          const freeText = q.isOther || q.isSecret || !q.options?.length;
          return (
            <fieldset key={q.id} className="tl-prompt-question">
              {questions.length > 1 && <legend>{q.header}</legend>}
              <p id={`${name}:text`}>{q.question}</p>
              {q.options?.map((option) => (
                <label key={option.label} className="tl-prompt-option">
                  <input
                    type="radio"
                    name={name}
                    checked={current?.choice === option.label}
                    onChange={() => set(q.id, { choice: option.label })}
                  />
                  <span>{option.label}</span>
                  {option.description && <span className="tl-muted">{option.description}</span>}
                </label>
              ))}
              {freeText && q.options?.length ? (
                <label className="tl-prompt-option">
                  <input
                    type="radio"
                    name={name}
                    checked={current?.choice === other}
                    onChange={() => set(q.id, { choice: other })}
                  />
                  <span>Other</span>
                </label>
              ) : null}
              {freeText && (
                <input
                  className="tl-input tl-prompt-text"
                  type={q.isSecret ? 'password' : 'text'}
                  autoComplete="off"
                  aria-labelledby={`${name}:text`}
                  placeholder={q.options?.length ? 'Your own answer' : 'Your answer'}
                  value={current?.text ?? ''}
                  onChange={(e) =>
                    set(q.id, { text: e.target.value, ...(q.options?.length ? { choice: other } : {}) })
                  }
                />
              )}
            </fieldset>
          );
        })}
      </form>
    </PromptCard>
  );
}
