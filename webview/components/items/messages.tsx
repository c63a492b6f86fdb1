// The conversational items: what the user said, what the agent answered, its reasoning (its plan: PlanCard.tsx).
import type { AgentMessageItem, ReasoningItem, UserMessageItem } from '../../../server/protocol/items';
import { useHost } from '../hooks';
import { Markdown } from '../Markdown';

export function UserMessage({ item }: { item: UserMessageItem }) {
  const host = useHost();
  return (
    <div className="tl-item tl-user" aria-label="You">
      {item.content.map((part, index) => {
        const path = part.type === 'text' || part.type === 'image' ? undefined : part.path;
        switch (part.type) {
          case 'text': {
            // Attached context (a terminal's output, problems) is one element over the whole text: its short name shows.
            const whole = part.text_elements?.length === 1 ? part.text_elements[0] : undefined;
            if (whole?.placeholder && whole.byteRange.start === 0)
              return (
                <span key={index} className="tl-chip" title={part.text.split('\n')[0]}>
                  <span className="codicon codicon-mention" aria-hidden="true" />{' '}
                  {whole.placeholder.replace(/^@/, '')}
                </span>
              );
            return (
              <div key={index} className="tl-user-text">
                {part.text}
              </div>
            );
          }
          case 'localImage':
          case 'image':
            return (
              <button
                key={index}
                type="button"
                className="tl-chip"
                onClick={() => path && host.post({ type: 'openFile', path })}
                disabled={!path}
              >
                <span className="codicon codicon-file-media" aria-hidden="true" /> {path ?? 'image'}
              </button>
            );
          default:
            return (
              <span key={index} className="tl-chip">
                <span className="codicon codicon-mention" aria-hidden="true" /> {part.name}
              </span>
            );
        }
      })}
    </div>
  );
}

export function AgentMessage({ item }: { item: AgentMessageItem }) {
  return (
    <div className="tl-item tl-agent">
      <Markdown text={item.text} />
    </div>
  );
}

export function Reasoning({ item }: { item: ReasoningItem }) {
  const summary = item.summary.filter(Boolean);
  const content = item.content.filter(Boolean);
  if (!summary.length && !content.length) {
    return <div className="tl-item tl-muted">Thinking…</div>;
  }
  const headline = summary[0]?.split('\n')[0].replace(/\*\*/g, '') ?? 'Reasoning';
  return (
    <details className="tl-item tl-reasoning">
      <summary>
        <span className="codicon codicon-lightbulb" aria-hidden="true" /> {headline}
      </summary>
      <Markdown text={[...summary, ...content].join('\n\n')} />
    </details>
  );
}
