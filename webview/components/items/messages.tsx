// The conversational items: what the user said, what the agent answered, its reasoning and its plan.
import type { AnyItem } from '../../store/state';
import { list, str, strings } from '../fields';
import { useHost } from '../hooks';
import { Markdown } from '../Markdown';

export function UserMessage({ item }: { item: AnyItem }) {
  const host = useHost();
  return (
    <div className="tl-item tl-user" aria-label="You">
      {list(item, 'content').map((part, index) => {
        const path = str(part, 'path');
        switch (part.type) {
          case 'text':
            return (
              <div key={index} className="tl-user-text">
                {str(part, 'text')}
              </div>
            );
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
                <span className="codicon codicon-mention" aria-hidden="true" />{' '}
                {str(part, 'name') ?? str(part, 'type')}
              </span>
            );
        }
      })}
    </div>
  );
}

export function AgentMessage({ item }: { item: AnyItem }) {
  return (
    <div className="tl-item tl-agent">
      <Markdown text={str(item, 'text') ?? ''} />
    </div>
  );
}

export function Reasoning({ item }: { item: AnyItem }) {
  const summary = strings(item, 'summary').filter(Boolean);
  const content = strings(item, 'content').filter(Boolean);
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

export function PlanText({ item }: { item: AnyItem }) {
  return (
    <div className="tl-item tl-card">
      <div className="tl-card-title">
        <span className="codicon codicon-checklist" aria-hidden="true" /> Plan
      </div>
      <Markdown text={str(item, 'text') ?? ''} />
    </div>
  );
}
