// Asks the host, before a turn is sent, whether the selected provider can take it; keeps the setup
// card's state (which problem, a step running) and runs the card's buttons.
import { useCallback, useState } from 'react';
import type { Host } from '../host';
import type { SetupAction, SetupStatus } from '../messages';

export type NotReady = Extract<SetupStatus, { ready: false }>;
export type CardAction = SetupAction | { action: 'recheck' };

export function useSetup(host: Host) {
  const [status, setStatus] = useState<NotReady | null>(null);
  const [busy, setBusy] = useState(false);

  /** Whether to send now; when not, the card shows. */
  const ready = useCallback(async (): Promise<boolean> => {
    // A check that fails (another server without these methods, say) does not hold the turn back:
    // the turn's own error then says what is wrong.
    const checked = await host.request('checkSetup', {}).catch((): SetupStatus => ({ ready: true }));
    setStatus(checked.ready ? null : checked);
    return checked.ready;
  }, [host]);

  /** Runs a button's step; `then` (sending the kept draft) runs once the provider is usable. */
  const act = useCallback(
    async (action: CardAction, then: () => void) => {
      setBusy(true);
      try {
        const after =
          action.action === 'recheck'
            ? await host.request('checkSetup', {})
            : await host.request('runSetup', action);
        setStatus(after.ready ? null : after);
        if (after.ready) then();
      } catch {
        // The command reported its own failure (an error notification); the card stays.
      } finally {
        setBusy(false);
      }
    },
    [host],
  );

  return { status, busy, ready, act, dismiss: () => setStatus(null) };
}
