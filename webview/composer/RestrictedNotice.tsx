// Restricted Mode (an untrusted folder) in the composer: the user sees why the agent asks before every
// command and cannot write, and where to lift it; the approval and sandbox pickers have no say then.
import { useSyncExternalStore } from 'react';
import { useHost, useStore } from '../components/hooks';

export function useRestricted(): boolean {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, () => store.restricted);
}

export function RestrictedNotice() {
  const host = useHost();
  if (!useRestricted()) return null;
  return (
    <div className="tl-restricted" role="note">
      <span className="codicon codicon-shield" aria-hidden="true" />
      <span>
        Restricted Mode: the agent asks before any command not known to be safe, and commands cannot change
        files.{' '}
        <button type="button" className="tl-link-button" onClick={() => host.post({ type: 'manageTrust' })}>
          Manage Workspace Trust
        </button>
      </span>
    </div>
  );
}
