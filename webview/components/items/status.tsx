// The small status line tool items share: an icon per status and the duration.
import { formatDuration } from '../fields';

const icons: Record<string, string> = {
  inProgress: 'loading codicon-modifier-spin',
  completed: 'check',
  failed: 'error',
  declined: 'circle-slash',
  blocked: 'circle-slash',
  stopped: 'debug-stop',
};

export function StatusBadge({ status, durationMs }: { status: string | undefined; durationMs?: number }) {
  const label = status === 'inProgress' ? 'running' : (status ?? 'unknown');
  return (
    <span className={`tl-status tl-status-${status ?? 'unknown'}`}>
      <span className={`codicon codicon-${icons[status ?? ''] ?? 'circle'}`} aria-hidden="true" /> {label}
      {durationMs !== undefined && <span className="tl-muted"> · {formatDuration(durationMs)}</span>}
    </span>
  );
}
