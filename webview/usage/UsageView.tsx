// The usage panel: today's and all-time totals, then tokens and estimated cost per model, per day and
// per thread, from account/usage/read's breakdown. Models without a price say so and link to the
// setting; nothing here computes a cost, the server does.
// Single components, not the barrel: the barrel defines every element on import.
import VscodeButton from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
import type { ReactNode } from 'react';
import type { AccountUsageReadResponse, UsageBreakdown } from '../../server/protocol/usageMethods';
import { dollars, estimate, tokens } from './format';
import type { UsageViewMessage } from './usageMessages';

type Estimated = Pick<UsageBreakdown['days'][number], 'tokens' | 'estimatedUsdMicros' | 'unpricedTokens'>;
type Row = Estimated & { label: string };

interface Props {
  usage: AccountUsageReadResponse | null;
  error: string | null;
  loading: boolean;
  post: (message: UsageViewMessage) => void;
}

export function UsageView({ usage, error, loading, post }: Props) {
  const breakdown = usage?.breakdown;
  return (
    <main className="tl-usage" aria-busy={loading}>
      <header className="tl-usage-header">
        <h1>Token usage</h1>
        <div className="tl-usage-actions">
          <VscodeButton secondary onClick={() => post({ type: 'refresh' })}>
            Refresh
          </VscodeButton>
          <VscodeButton secondary onClick={() => post({ type: 'editPrices' })}>
            Edit prices…
          </VscodeButton>
        </div>
      </header>
      {error !== null && (
        <p className="tl-usage-error" role="alert">
          {error}
        </p>
      )}
      {!breakdown ? (
        error === null && <p className="tl-usage-note">Reading usage…</p>
      ) : (
        <Report usage={usage!} breakdown={breakdown} post={post} />
      )}
    </main>
  );
}

function Report({
  usage,
  breakdown,
  post,
}: {
  usage: AccountUsageReadResponse;
  breakdown: UsageBreakdown;
  post: Props['post'];
}) {
  const today = breakdown.days.find((day) => day.date === breakdown.today);
  const priced = breakdown.models.filter((m) => m.priced);
  const unpriced = breakdown.models.filter((m) => !m.priced);
  const allMicros = priced.length ? priced.reduce((sum, m) => sum + (m.estimatedUsdMicros ?? 0), 0) : null;
  const editPrices = () => post({ type: 'editPrices' });
  if (breakdown.models.length === 0) {
    return <p className="tl-usage-note">No tokens recorded yet: usage appears here after a turn.</p>;
  }
  return (
    <>
      <section className="tl-usage-totals" aria-label="Totals">
        <Total label="Today" value={tokens(today?.tokens.totalTokens ?? 0)}>
          {today ? estimate(today.estimatedUsdMicros, today.unpricedTokens) : dollars(0)}
        </Total>
        <Total label="All time" value={tokens(usage.summary.lifetimeTokens ?? 0)}>
          {estimate(
            allMicros,
            unpriced.reduce((sum, m) => sum + m.tokens.totalTokens, 0),
          )}
        </Total>
        <Total label="Threads" value={String(breakdown.threadCount)}>
          {`${usage.summary.currentStreakDays ?? 0}-day streak`}
        </Total>
      </section>
      {unpriced.length > 0 && (
        <p className="tl-usage-note">
          No price set for {unpriced.map((m) => m.model).join(', ')}. Add{' '}
          <code>[usage.prices."{unpriced[0]!.model}"]</code> with <code>input</code>,{' '}
          <code>cached_input</code> and <code>output</code> (dollars per million tokens) to config.toml:{' '}
          <button type="button" className="tl-link" onClick={editPrices}>
            edit prices
          </button>
          .
        </p>
      )}
      <Table title="By model" first="Model" rows={breakdown.models.map((m) => ({ label: m.model, ...m }))} />
      <Table title="By day" first="Day" rows={breakdown.days.map((d) => ({ label: d.date, ...d }))} />
      <section>
        <h2>By thread</h2>
        <table className="tl-usage-table" aria-label="Usage by thread">
          <thead>
            <tr>
              <th>Thread</th>
              <th>Last used</th>
              <th className="num">Tokens</th>
              <th className="num">Estimated cost</th>
            </tr>
          </thead>
          <tbody>
            {breakdown.threads.map((thread) => (
              <tr key={thread.threadId}>
                <td className="tl-usage-title">
                  <button
                    type="button"
                    className="tl-link"
                    title={thread.title}
                    onClick={() => post({ type: 'openThread', threadId: thread.threadId })}
                  >
                    {thread.title}
                  </button>
                </td>
                <td>
                  {thread.lastUsedAt === null ? '' : new Date(thread.lastUsedAt * 1000).toLocaleString()}
                </td>
                <td className="num">{tokens(thread.tokens.totalTokens)}</td>
                <td className="num">{estimate(thread.estimatedUsdMicros, thread.unpricedTokens)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {breakdown.threadCount > breakdown.threads.length && (
          <p className="tl-usage-note">
            The {breakdown.threads.length} threads that used the most tokens, of {breakdown.threadCount}.
          </p>
        )}
      </section>
    </>
  );
}

function Total({ label, value, children }: { label: string; value: string; children: ReactNode }) {
  return (
    <div className="tl-usage-total" aria-label={label}>
      <div className="tl-usage-total-label">{label}</div>
      <div className="tl-usage-total-value">{value}</div>
      <div className="tl-usage-total-cost">{children}</div>
    </div>
  );
}

function Table({ title, first, rows }: { title: string; first: string; rows: Row[] }) {
  return (
    <section>
      <h2>{title}</h2>
      <table className="tl-usage-table" aria-label={`Usage ${title.toLowerCase()}`}>
        <thead>
          <tr>
            <th>{first}</th>
            <th className="num">Input</th>
            <th className="num">Cached</th>
            <th className="num">Output</th>
            <th className="num">Total</th>
            <th className="num">Estimated cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <td>{row.label}</td>
              <td className="num">{tokens(row.tokens.inputTokens)}</td>
              <td className="num">{tokens(row.tokens.cachedInputTokens)}</td>
              <td className="num">{tokens(row.tokens.outputTokens)}</td>
              <td className="num">{tokens(row.tokens.totalTokens)}</td>
              <td className="num">{estimate(row.estimatedUsdMicros, row.unpricedTokens)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
