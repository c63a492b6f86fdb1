// MCP and dynamic tool calls, and web searches: what was called with what, and how it went.
import type { AnyItem } from '../../store/state';
import { list, num, str } from '../fields';
import { useView } from '../hooks';
import { StatusBadge } from './status';

export function ToolCall({ item, itemKey }: { item: AnyItem; itemKey: string }) {
  const progress = useView((s) => s.progress[itemKey]);
  const server = str(item, 'server') ?? str(item, 'namespace');
  const tool = str(item, 'tool') ?? 'tool';
  const error = (item as { error?: { message?: unknown } }).error;
  const result = (item as { result?: unknown }).result ?? (item as { contentItems?: unknown }).contentItems;
  return (
    <div className="tl-item tl-card">
      <div className="tl-card-title">
        <span className="codicon codicon-tools" aria-hidden="true" /> {server ? `${server} · ${tool}` : tool}
        <StatusBadge status={str(item, 'status')} durationMs={num(item, 'durationMs')} />
      </div>
      {progress && str(item, 'status') === 'inProgress' && <div className="tl-muted">{progress}</div>}
      <details>
        <summary>Arguments</summary>
        <pre className="tl-json">{json((item as { arguments?: unknown }).arguments)}</pre>
      </details>
      {typeof error?.message === 'string' && <div className="tl-error-text">{error.message}</div>}
      {result !== undefined && result !== null && (
        <details>
          <summary>Result</summary>
          <ResultView result={result} />
        </details>
      )}
    </div>
  );
}

/** An MCP result that is only text reads as that text; anything else (images, structure) as JSON. */
function ResultView({ result }: { result: unknown }) {
  const content = (result as { content?: unknown }).content;
  const texts = Array.isArray(content) && content.length > 0 && content.every(isTextPart) ? content : null;
  if (!texts) return <pre className="tl-json">{json(result)}</pre>;
  return <pre className="tl-json">{texts.map((part) => part.text).join('\n')}</pre>;
}

const isTextPart = (part: unknown): part is { type: 'text'; text: string } =>
  typeof part === 'object' &&
  part !== null &&
  (part as { type?: unknown }).type === 'text' &&
  typeof (part as { text?: unknown }).text === 'string';

export function WebSearch({ item }: { item: AnyItem }) {
  const results = list(item, 'results');
  return (
    <div className="tl-item tl-card">
      <div className="tl-card-title">
        <span className="codicon codicon-search" aria-hidden="true" /> Searched the web: {str(item, 'query')}
      </div>
      {results.length > 0 && <div className="tl-muted">{results.length} results</div>}
    </div>
  );
}

export function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
