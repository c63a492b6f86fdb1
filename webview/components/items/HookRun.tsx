// A hook the user configured, run by the server at a point of the turn (hook/started, hook/completed):
// shown once it has run for a moment, so a slow hook does not look like a stuck agent while the usual
// quick one does not flash a line, and kept when it blocked, failed, stopped the turn or said
// something. A hook that ran quietly leaves no row (the reducer drops it). What a hook printed is
// untrusted text and is shown as text.
import { useEffect, useState } from 'react';
import type { HookRunSummary } from '../../../server/protocol/hooks';
import type { UnknownItem } from '../../store/state';
import { StatusBadge } from './status';

/** As hooks are configured: `[[hooks.PreToolUse]]`. */
export function hookEventLabel(event: string): string {
  return event.charAt(0).toUpperCase() + event.slice(1);
}

/** How long a hook runs before its line shows. */
export const HOOK_SHOWN_AFTER_MS = 800;

export function HookRun({ item }: { item: UnknownItem }) {
  const run = item.run as HookRunSummary;
  const shown = useShownAfter(HOOK_SHOWN_AFTER_MS, run.status !== 'running');
  if (!shown) return null;
  const status = run.status === 'running' ? 'inProgress' : run.status;
  const file = run.sourcePath.split(/[\\/]/).pop() ?? run.sourcePath;
  return (
    <div className={`tl-item tl-hook tl-hook-${run.status}`}>
      <div className="tl-card-meta">
        <span className="codicon codicon-symbol-event" aria-hidden="true" />
        <span>{hookEventLabel(run.eventName)} hook</span>
        <code className="tl-prompt-path" title={run.sourcePath}>
          {file}
        </code>
        <StatusBadge status={status} durationMs={run.durationMs ?? undefined} />
      </div>
      {run.status === 'running' && run.statusMessage && <div className="tl-muted">{run.statusMessage}</div>}
      {run.entries.map((entry, index) => (
        <div key={index} className={`tl-hook-entry tl-hook-entry-${entry.kind}`}>
          {entry.text}
        </div>
      ))}
    </div>
  );
}

/** True at once when `now`, else once `ms` have passed since the component appeared. */
function useShownAfter(ms: number, now: boolean): boolean {
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (now || late) return;
    const timer = setTimeout(() => setLate(true), ms);
    return () => clearTimeout(timer);
  }, [ms, now, late]);
  return now || late;
}
