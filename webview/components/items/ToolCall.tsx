// MCP and dynamic tool calls, and web searches: what was called with what, and how it went.
import type { McpToolCallItem } from '../../../server/protocol/mcp';
import type { DynamicToolCallItem } from '../../../server/protocol/toolCallItems';
import type { UnknownItem } from '../../store/state';
import { list, str } from '../fields';
import { useView } from '../hooks';
import { StatusBadge } from './status';

export function ToolCall({
  item,
  itemKey,
}: {
  item: McpToolCallItem | DynamicToolCallItem;
  itemKey: string;
}) {
  const progress = useView((s) => s.progress[itemKey]);
  const mcp = item.type === 'mcpToolCall' ? item : undefined;
  const server = mcp ? mcp.server : item.type === 'dynamicToolCall' ? item.namespace : undefined;
  const error = mcp?.error;
  const result = mcp ? mcp.result : item.type === 'dynamicToolCall' ? item.contentItems : undefined;
  const { tool } = item;
  return (
    <div className="tl-item tl-card">
      <div className="tl-card-title">
        <span className="codicon codicon-tools" aria-hidden="true" /> {server ? `${server} · ${tool}` : tool}
        <StatusBadge status={item.status} durationMs={item.durationMs ?? undefined} />
      </div>
      {progress && item.status === 'inProgress' && <div className="tl-muted">{progress}</div>}
      <details>
        <summary>Arguments</summary>
        <pre className="tl-json">{json(item.arguments)}</pre>
      </details>
      {error && <div className="tl-error-text">{error.message}</div>}
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

/** A web search (an item type of the reference protocol that this server does not send): read by field. */
export function WebSearch({ item }: { item: UnknownItem }) {
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
