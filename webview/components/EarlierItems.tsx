// The top of a long turn whose earlier items were not sent at first (extension/conversation/threadFeed.ts):
// one click brings the page before the first one shown.
import { memo, useState } from 'react';
import { useHost, useStore, useView } from './hooks';

export const EarlierItems = memo(function EarlierItems({ turnId }: { turnId: string }) {
  const host = useHost();
  const store = useStore();
  const threadId = useView((s) => s.thread?.id);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = () => {
    const state = store.getState();
    const first = state.items[state.turns[turnId]?.itemKeys[0] ?? ''];
    if (!threadId || !first) return;
    setLoading(true);
    setError(null);
    host
      .request('loadEarlierItems', { threadId, turnId, beforeItemId: first.id })
      .catch((e: Error) => setError(e.message))
      .finally(() => setLoading(false));
  };
  return (
    <div className="tl-earlier-items">
      <button type="button" className="tl-link-button" disabled={loading} onClick={load}>
        <span className="codicon codicon-fold-up" aria-hidden="true" />{' '}
        {loading ? 'Loading earlier steps…' : 'Show earlier steps of this turn'}
      </button>
      {error && (
        <span className="tl-error-text" role="alert">
          {' '}
          {error}
        </span>
      )}
    </div>
  );
});
