// The thread's status in the conversation's header, read exactly as the Threads tree reads it
// (common/threadStatus.ts): the server's thread status, or waiting when a prompt of it is pending.
import { useSyncExternalStore } from 'react';
import { statusLook, statusText } from '../common/threadStatus';
import { useStore, useView } from '../components/hooks';

const icons = { running: 'loading codicon-modifier-spin', waiting: 'bell-dot', error: 'error', idle: '' };

export function ThreadStatusChip() {
  const store = useStore();
  const status = useView((s) => s.thread?.status);
  const prompted = useSyncExternalStore(store.subscribePrompts, () => store.getPrompts().pending.length > 0);
  if (!status) return null;
  const look = statusLook(status, prompted);
  return (
    <span className={`tl-thread-status tl-thread-status-${look}`} data-thread-status={look}>
      {look !== 'idle' && (
        <>
          <span className={`codicon codicon-${icons[look]}`} aria-hidden="true" /> {statusText[look]}
        </>
      )}
    </span>
  );
}
