// The usage panel's page (webview.js runs it where the page says `data-page="usage"`): asks the host for
// usage, renders what it sends. It keeps nothing between sessions: the host reads usage again whenever
// the panel opens.
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './usage.css';
import type { AccountUsageReadResponse } from '../../server/protocol/usageMethods';
import type { UsageHostMessage, UsageViewMessage } from './usageMessages';
import { UsageView } from './UsageView';

declare function acquireVsCodeApi(): {
  postMessage(message: UsageViewMessage): void;
  setState(state: unknown): void;
};

function UsagePage({ post }: { post: (message: UsageViewMessage) => void }) {
  const [usage, setUsage] = useState<AccountUsageReadResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    const receive = (event: MessageEvent<UsageHostMessage>) => {
      const message = event.data;
      if (message.type === 'loading') return setLoading(true);
      setLoading(false);
      if (message.type === 'error') return setError(message.message);
      setError(null);
      setUsage(message.usage);
    };
    window.addEventListener('message', receive);
    post({ type: 'ready' });
    return () => window.removeEventListener('message', receive);
  }, [post]);
  return <UsageView usage={usage} error={error} loading={loading} post={post} />;
}

export function mountUsagePage(container: HTMLElement): void {
  const api = acquireVsCodeApi();
  // A state, however empty, marks the panel as one to restore after a reload (the host reads usage again).
  api.setState({});
  const post = (message: UsageViewMessage) => api.postMessage(message);
  createRoot(container).render(<UsagePage post={post} />);
}
