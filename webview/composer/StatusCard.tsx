// `/status`: what the thread runs with and what it has used: the model and mode, the context window
// (thread/tokenUsage/updated), the provider's rate limits (account/rateLimits/read), and today's
// tokens over every thread with their estimated cost (account/usage/read).
import { useEffect, useState } from 'react';
import { formatTokens } from '../components/fields';
import { useHost, useView } from '../components/hooks';
import type { RateLimits, UsageToday } from '../messages';
import { estimate, tokens } from '../usage/format';

export function StatusCard({
  model,
  planning,
  onClose,
}: {
  model: string;
  planning: boolean;
  onClose: () => void;
}) {
  const host = useHost();
  const usage = useView((s) => s.tokenUsage);
  const [limits, setLimits] = useState<RateLimits | null | undefined>(undefined);
  const [today, setToday] = useState<UsageToday | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    host.request('readRateLimits', {}).then(
      (r) => current && setLimits(r.rateLimits),
      () => current && setLimits(null),
    );
    host.request('readUsageToday', {}).then(
      (r) => current && setToday(r.today),
      () => current && setToday(null),
    );
    return () => void (current = false);
  }, [host]);

  const used = usage ? usage.last.inputTokens + usage.last.outputTokens : null;
  const window = usage?.modelContextWindow ?? null;
  const windows = [
    ['Requests', limits?.primary],
    ['Tokens', limits?.secondary],
  ] as const;
  return (
    <div className="tl-card tl-status-card" role="status" aria-label="Status">
      <div className="tl-card-title">
        <span className="codicon codicon-pulse" aria-hidden="true" /> Status
        <span className="tl-spacer" />
        <button type="button" className="tl-icon-button" aria-label="Close status" onClick={onClose}>
          <span className="codicon codicon-close" aria-hidden="true" />
        </button>
      </div>
      <dl className="tl-usage-list">
        <dt>Model</dt>
        <dd>{model || 'the provider’s default'}</dd>
        <dt>Mode</dt>
        <dd>{planning ? 'Plan (changes nothing)' : 'Default'}</dd>
        <dt>Context</dt>
        <dd>
          {used === null
            ? 'nothing sent yet'
            : window
              ? `${formatTokens(used)} of ${formatTokens(window)} tokens (${Math.round((used / window) * 100)}%)`
              : `${formatTokens(used)} tokens`}
        </dd>
        <dt>Used</dt>
        <dd>
          {usage
            ? `${formatTokens(usage.total.totalTokens)} tokens in this thread (${formatTokens(usage.total.cachedInputTokens)} cached)`
            : '—'}
        </dd>
        <dt>Today</dt>
        <dd>
          {today === undefined
            ? 'reading…'
            : today
              ? `${tokens(today.totalTokens)} tokens in all threads, ${estimate(today.estimatedUsdMicros, today.unpricedTokens)}${today.estimatedUsdMicros === null ? '' : ' estimated'}`
              : 'not known'}
        </dd>
        {windows.map(([label, limit]) => (
          <Limit key={label} label={label} limit={limit} loading={limits === undefined} />
        ))}
      </dl>
    </div>
  );
}

function Limit({
  label,
  limit,
  loading,
}: {
  label: string;
  limit: RateLimits['primary'] | undefined;
  loading: boolean;
}) {
  const resets = limit?.resetsAt ? new Date(limit.resetsAt * 1000).toLocaleTimeString() : null;
  return (
    <>
      <dt>{label} limit</dt>
      <dd>
        {loading
          ? 'reading…'
          : limit
            ? `${limit.usedPercent}% used${limit.windowDurationMins ? ` of a ${limit.windowDurationMins} min window` : ''}${resets ? `, resets ${resets}` : ''}`
            : 'not reported by the provider'}
      </dd>
    </>
  );
}
