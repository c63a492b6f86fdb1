// The thread's goal in the conversation's header: its objective (cut to the header's width, whole in
// the tooltip) and, unless it is being worked on, its status. Set with `/goal <objective>`.
import type { ThreadGoalStatus } from '../../server/protocol/threadGoal';
import { useView } from '../components/hooks';

const statusText: Record<ThreadGoalStatus, string> = {
  active: 'active',
  paused: 'paused',
  blocked: 'blocked',
  usageLimited: 'usage limit reached',
  budgetLimited: 'budget spent',
  complete: 'complete',
};

export function GoalChip() {
  const goal = useView((s) => s.goal);
  if (!goal) return null;
  const status = statusText[goal.status];
  return (
    <span
      className="tl-goal"
      data-goal-status={goal.status}
      title={`Goal (${status}): ${goal.objective}`}
      aria-label={`Goal, ${status}: ${goal.objective}`}
    >
      <span className="codicon codicon-target" aria-hidden="true" />
      <span className="tl-goal-text">{goal.objective}</span>
      {goal.status !== 'active' && <span className="tl-muted">({status})</span>}
    </span>
  );
}
