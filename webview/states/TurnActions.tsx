// Retry on a failed or interrupted last turn (its input again, as a new turn: the failed one stays in
// the history) and Edit and resend on the last message (its text back into the composer; sending then
// replaces that turn, see Composer). What they act on is read by store/turnActions.ts. Neither shows
// while the server has failed: there is no composer to fill and no server to send to.
import { useState } from 'react';
import { useHost, useStore, useView, useViewStatus } from '../components/hooks';
import { editableMessage, retryInput } from '../store/turnActions';

export function RetryButton({ turnId }: { turnId: string }) {
  const host = useHost();
  const input = useView((s) => retryInput(s, turnId));
  const threadId = useView((s) => s.thread?.id);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const serverFailed = useViewStatus().serverFailure !== null;
  if (!input || !threadId || serverFailed) return null;
  const retry = () => {
    setSending(true);
    setError(null);
    host
      .request('startTurn', { threadId, input, overrides: {} })
      .catch((e: Error) => setError(e.message))
      .finally(() => setSending(false));
  };
  return (
    <span className="tl-retry">
      <button
        type="button"
        className="tl-link-button"
        title="Send the same message again, as a new turn (this one stays in the history)"
        disabled={sending}
        onClick={retry}
      >
        <span className="codicon codicon-refresh" aria-hidden="true" /> Retry
      </button>
      {error && (
        <span className="tl-error-text" role="alert">
          {' '}
          {error}
        </span>
      )}
    </span>
  );
}

/** Shown on the last turn's message once that turn has ended. */
export function EditMessageButton({ itemKey }: { itemKey: string }) {
  const store = useStore();
  const editable = useView((s) => editableMessage(s)?.itemKey === itemKey);
  const serverFailed = useViewStatus().serverFailure !== null;
  if (!editable || serverFailed) return null;
  const edit = () => {
    const message = editableMessage(store.getState());
    if (message) store.fillComposer({ text: message.text, editTurnId: message.turnId });
  };
  return (
    <button
      type="button"
      className="tl-icon-button tl-edit-message"
      aria-label="Edit and resend"
      title="Edit and resend: puts this message back in the composer; sending replaces this turn"
      onClick={edit}
    >
      <span className="codicon codicon-edit" aria-hidden="true" />
    </button>
  );
}
