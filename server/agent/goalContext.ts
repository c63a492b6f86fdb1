// How a thread's goal reads to the model: a section of the context messages (environmentContext.ts),
// so setting, changing or clearing it appends an update and never rewrites what was sent.
import type { StoredGoal } from '../threads/records';
import { oneLine } from './contextBlock';

const STATUS_MEANING: Record<StoredGoal['status'], string> = {
  active: 'work toward it',
  paused: 'the user paused it: do not pursue it unless asked',
  blocked: 'blocked: say what is needed to continue',
  usageLimited: 'stopped by a usage limit',
  budgetLimited: 'its token budget is spent',
  complete: 'done: do not pursue it further',
};

export function goalSection(goal: StoredGoal | null): string | null {
  if (!goal) return null;
  const lines = [
    `Objective (set by the user): ${oneLine(goal.objective)}`,
    `Status: ${goal.status} (${STATUS_MEANING[goal.status]})`,
  ];
  if (goal.tokenBudget !== null) lines.push(`Token budget: ${goal.tokenBudget}`);
  return lines.join('\n');
}
