// The error a failed turn ended with, under the prompt and whatever the turn did before it failed.
// A turn that failed for want of a key offers the sign-in for its provider right there.
import { memo } from 'react';
import { errorKind, explainError } from './errorText';
import { useHost, useView } from './hooks';
import { RetryButton } from '../states/TurnActions';

const needsKey = new Set(['apiKeyMissing', 'unauthorized']);

export const TurnError = memo(function TurnError({ turnId }: { turnId: string }) {
  const host = useHost();
  const error = useView((s) => s.turns[turnId]?.error);
  const providerId = useView((s) => s.settings?.modelProvider);
  if (!error) return null;
  const kind = errorKind(error.codexErrorInfo);
  return (
    <div className="tl-error tl-turn-error" role="alert" data-error-kind={kind}>
      <span className="codicon codicon-error" aria-hidden="true" /> {explainError(error)}
      <div className="tl-muted">{error.message}</div>
      {kind && needsKey.has(kind) && providerId && (
        <button
          type="button"
          className="tl-link-button"
          onClick={() => void host.request('runSetup', { action: 'signIn', providerId }).catch(() => {})}
        >
          Sign in with an API key
        </button>
      )}
      <RetryButton turnId={turnId} />
    </div>
  );
});
