// The line above each turn: its status, when it ran, how long it took, its tokens, and — once the
// turn changed files — "Changes in this turn", which opens the multi-file diff. A failed turn's error
// is its own row after the turn's items (TurnError).
import { memo } from 'react';
import { countDiff } from './items/FileChange';
import { formatClock, formatTokens } from './fields';
import { useHost, useView } from './hooks';
import { StatusBadge } from './items/status';

export const TurnHeader = memo(function TurnHeader({ turnId }: { turnId: string }) {
  const host = useHost();
  const turn = useView((s) => s.turns[turnId]);
  if (!turn) return null;
  const files = turn.diff ? (turn.diff.match(/^diff --git /gm)?.length ?? 0) : 0;
  const counts = turn.diff ? countDiff(turn.diff) : null;
  return (
    <div className="tl-turn" data-turn-id={turnId} data-turn-status={turn.status}>
      <div className="tl-turn-head">
        <StatusBadge status={turn.status} durationMs={turn.durationMs ?? undefined} />
        {turn.startedAt !== null && <span className="tl-muted">{formatClock(turn.startedAt)}</span>}
        {turn.usage && (
          <span className="tl-muted" title={`${turn.usage.inputTokens} in, ${turn.usage.outputTokens} out`}>
            {formatTokens(turn.usage.totalTokens)} tokens
          </span>
        )}
        {turn.diff && counts && (
          <button
            type="button"
            className="tl-link-button tl-changes"
            onClick={() => host.post({ type: 'openTurnChanges', turnId, diff: turn.diff ?? '' })}
          >
            <span className="codicon codicon-diff-multiple" aria-hidden="true" /> Changes in this turn:{' '}
            {files} {files === 1 ? 'file' : 'files'} <span className="tl-added">+{counts.added}</span>{' '}
            <span className="tl-removed">−{counts.removed}</span>
          </button>
        )}
      </div>
      {turn.retrying && turn.status === 'inProgress' && (
        <div className="tl-muted" role="status">
          Retrying: {turn.retrying}
        </div>
      )}
      {/* Not a failure: stopped by the user, or by the server going away (its error says which). */}
      {turn.status === 'interrupted' && (
        <div className="tl-muted">Interrupted{turn.error ? `: ${turn.error.message}` : ''}</div>
      )}
    </div>
  );
});
