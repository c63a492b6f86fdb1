// The composer's plan mode switch: a compact toggle beside the pickers. In plan mode the agent only
// reads and proposes a plan (the server refuses anything that would change files). `planControl` is
// the same toggle as one entry of a toolbar's list of controls ({ id, label, inline }).
import type { ReactNode } from 'react';
export function PlanToggle({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  return (
    <button
      type="button"
      className={`tl-plan-toggle${on ? ' tl-on' : ''}`}
      aria-pressed={on}
      title={
        on
          ? 'Plan mode: the agent proposes a plan and changes nothing (click to leave)'
          : 'Plan first (/plan)'
      }
      onClick={() => onChange(!on)}
    >
      <span className="codicon codicon-checklist" aria-hidden="true" /> Plan
    </button>
  );
}

export function planControl(
  on: boolean,
  onChange: (on: boolean) => void,
): { id: string; label: string; inline: ReactNode } {
  return { id: 'plan', label: 'Plan mode', inline: <PlanToggle on={on} onChange={onChange} /> };
}
