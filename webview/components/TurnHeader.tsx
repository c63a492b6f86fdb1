// The line above each turn: its status, when it ran, how long it took, its tokens, and — once the
// turn changed files — "Review changes" (the multi-file diff) and "Undo changes" when the server keeps
// checkpoints, else "Changes in this turn" from the turn's diff. A failed turn's error
// is its own row after the turn's items (TurnError).
import { memo, useSyncExternalStore } from 'react';
import { countDiff } from './items/FileChange';
import { formatClock, formatTokens } from './fields';
import { useHost, useStore, useView } from './hooks';
import { StatusBadge } from './items/status';
import { RetryButton } from '../states/TurnActions';

function useTurnChanges(): boolean {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, () => store.turnChanges);
}

export const TurnHeader = memo(function TurnHeader({ turnId }: { turnId: string }) {
  const host = useHost();
  const turn = useView((s) => s.turns[turnId]);
  const turnChanges = useTurnChanges();
  // Files are changed by patches and by the agent's commands; the server's record says which.
  const mayHaveChanged = useView((s) =>
    (s.turns[turnId]?.itemKeys ?? []).some((key) => {
      const item = s.items[key];
      return (
        (item?.type === 'fileChange' && item.status === 'completed') ||
        (item?.type === 'commandExecution' && item.source !== 'userShell')
      );
    }),
  );
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
        {turn.diff && counts && !turnChanges && (
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
        {turnChanges && mayHaveChanged && turn.status !== 'inProgress' && (
          <span className="tl-turn-changes">
            <button
              type="button"
              className="tl-link-button tl-changes"
              title="Open everything this turn changed on disk in one diff editor"
              onClick={() => host.post({ type: 'openTurnChanges', turnId, diff: turn.diff ?? '' })}
            >
              <span className="codicon codicon-diff-multiple" aria-hidden="true" /> Review changes
              {counts && (
                <>
                  {' '}
                  <span className="tl-added">+{counts.added}</span>{' '}
                  <span className="tl-removed">−{counts.removed}</span>
                </>
              )}
            </button>
            <button
              type="button"
              className="tl-link-button tl-undo-changes"
              title="Put back the files this turn changed (asks first)"
              onClick={() => host.post({ type: 'undoTurnChanges', turnId })}
            >
              <span className="codicon codicon-discard" aria-hidden="true" /> Undo changes
            </button>
          </span>
        )}
      </div>
      {turn.retrying && turn.status === 'inProgress' && (
        <div className="tl-muted" role="status">
          Retrying: {turn.retrying}
        </div>
      )}
      {turn.status === 'failed' && !turn.error && <RetryButton turnId={turnId} />}
      {/* Not a failure: stopped by the user, or by the server going away (its error says which). */}
      {turn.status === 'interrupted' && (
        <div className="tl-muted">
          Interrupted{turn.error ? `: ${turn.error.message}` : ''} <RetryButton turnId={turnId} />
        </div>
      )}
    </div>
  );
});
