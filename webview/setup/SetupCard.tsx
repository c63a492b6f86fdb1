// The card shown instead of sending when the selected provider cannot take a turn (no key, a local
// server that does not answer). The draft stays in the composer; once a button leaves the provider
// usable, the composer sends that same draft.
import { useEffect, useRef } from 'react';
import type { SetupAction, SetupStatus } from '../messages';

type NotReady = Extract<SetupStatus, { ready: false }>;

interface Props {
  status: NotReady;
  /** A setup step is running (a quick input is open): the buttons wait. */
  busy: boolean;
  onAction: (action: SetupAction | { action: 'recheck' }) => void;
  onDismiss: () => void;
}

export function SetupCard({ status, busy, onAction, onDismiss }: Props) {
  const first = useRef<HTMLButtonElement>(null);
  // The user just pressed Send: the way on is the card's first button.
  useEffect(() => first.current?.focus(), []);
  const { provider, problem, local } = status;
  const title =
    problem === 'noKey' ? `${provider.name} needs an API key` : `${provider.name} is not answering`;
  const detail =
    problem === 'noKey'
      ? 'Nothing was sent. Your message stays below and goes out once you are signed in.'
      : 'Nothing was sent. Start it and check again, or choose another provider; your message stays below.';
  return (
    <section className="tl-setup" role="region" aria-label="Set up a model provider">
      <div className="tl-setup-title">
        <span className="codicon codicon-key" aria-hidden="true" />
        <span className="tl-setup-heading">{title}</span>
        <button type="button" className="tl-icon-button" aria-label="Dismiss" onClick={onDismiss}>
          <span className="codicon codicon-close" aria-hidden="true" />
        </button>
      </div>
      <p className="tl-muted">{detail}</p>
      <div className="tl-setup-actions">
        {problem === 'noKey' ? (
          <button
            ref={first}
            type="button"
            className="tl-button"
            disabled={busy}
            onClick={() => onAction({ action: 'signIn', providerId: provider.id })}
          >
            <span className="codicon codicon-key" aria-hidden="true" /> Sign in with an API key
          </button>
        ) : (
          <button
            ref={first}
            type="button"
            className="tl-button"
            disabled={busy}
            onClick={() => onAction({ action: 'recheck' })}
          >
            <span className="codicon codicon-refresh" aria-hidden="true" /> Check again
          </button>
        )}
        {local.map((p) => (
          <button
            key={p.id}
            type="button"
            className="tl-button tl-secondary"
            disabled={busy}
            onClick={() => onAction({ action: 'useLocal', providerId: p.id })}
          >
            <span className="codicon codicon-vm" aria-hidden="true" /> Use {p.name} on this machine
          </button>
        ))}
        <button
          type="button"
          className="tl-button tl-secondary"
          disabled={busy}
          onClick={() => onAction({ action: 'chooseProvider' })}
        >
          <span className="codicon codicon-settings-gear" aria-hidden="true" /> Choose another provider
        </button>
      </div>
    </section>
  );
}
