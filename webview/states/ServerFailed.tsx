// The server stopped for good (it crashed repeatedly, or cannot start at all): said in the conversation
// itself, with the reason the extension has and the two ways on. Restart is the same command as the
// status bar's; once the server answers again the host sends the view afresh, which replaces this.
import { useEffect, useRef, useState } from 'react';
import { useHost } from '../components/hooks';

export function ServerFailed({ reason }: { reason: string }) {
  const host = useHost();
  const [restarting, setRestarting] = useState(false);
  const restart = useRef<HTMLButtonElement>(null);
  // A new failure (the restart failed too) makes the button usable again.
  useEffect(() => setRestarting(false), [reason]);
  return (
    <section className="tl-server-failed" role="alert" aria-label="Threadline's server stopped">
      <div className="tl-server-failed-title">
        <span className="codicon codicon-error" aria-hidden="true" />
        <span>Threadline&apos;s server stopped</span>
      </div>
      <p className="tl-server-failed-reason">{reason}</p>
      <p className="tl-muted">Nothing can be sent until it runs again. The log says more.</p>
      <div className="tl-setup-actions">
        <button
          ref={restart}
          type="button"
          className="tl-button"
          disabled={restarting}
          onClick={() => {
            setRestarting(true);
            host.post({ type: 'restartServer' });
          }}
        >
          <span
            className={`codicon ${restarting ? 'codicon-loading codicon-modifier-spin' : 'codicon-debug-restart'}`}
            aria-hidden="true"
          />{' '}
          {restarting ? 'Restarting…' : 'Restart'}
        </button>
        <button
          type="button"
          className="tl-button tl-secondary"
          onClick={() => host.post({ type: 'showLog' })}
        >
          <span className="codicon codicon-output" aria-hidden="true" /> Show Log
        </button>
      </div>
    </section>
  );
}
