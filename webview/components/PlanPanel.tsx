// The running turn's plan (turn/plan/updated) as a checklist, kept above the list while the turn runs.
import { useView } from './hooks';

const marks = {
  completed: 'pass-filled',
  inProgress: 'circle-large-outline',
  pending: 'circle-large-outline',
};

export function PlanPanel() {
  const lastTurnId = useView((s) => s.turnIds[s.turnIds.length - 1]);
  const turn = useView((s) => (lastTurnId ? s.turns[lastTurnId] : undefined));
  if (!turn?.plan || turn.status !== 'inProgress' || turn.plan.steps.length === 0) return null;
  return (
    <section className="tl-plan" aria-label="Plan">
      {turn.plan.explanation && <div className="tl-muted">{turn.plan.explanation}</div>}
      <ul>
        {turn.plan.steps.map((step, index) => (
          <li
            key={index}
            className={`tl-step tl-step-${step.status}`}
            aria-checked={step.status === 'completed'}
            role="checkbox"
          >
            <span
              className={`codicon codicon-${marks[step.status] ?? 'circle-large-outline'}`}
              aria-hidden="true"
            />{' '}
            {step.step}
          </li>
        ))}
      </ul>
    </section>
  );
}
