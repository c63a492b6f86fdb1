// A thread's goal (thread/goal/set|get|clear) and its metadata patch (thread/metadata/update). Both
// are records in the thread's rollout, so they survive restarts and index rebuilds; the goal
// reaches the model as a context update appended before the next turn's message (turnSetup.ts).
import type { ParamsOf } from '../protocol/methods';
import type { GitInfo } from '../protocol/thread';
import type { ThreadGoal } from '../protocol/threadGoal';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';
import type { History, StoredGoal } from '../threads/records';
import type { ThreadSessions } from './threadSessions';

/** The protocol's goal: the stored one with the time and tokens the thread's turns spent since it was set. */
export function goalView(threadId: string, history: History): ThreadGoal | null {
  const { goal } = history;
  if (!goal) return null;
  const ranMs = history.turns
    .filter((turn) => turn.startedAt !== null && turn.startedAt >= goal.createdAt)
    .reduce((sum, turn) => sum + (turn.durationMs ?? 0), 0);
  return {
    threadId,
    objective: goal.objective,
    status: goal.status,
    tokenBudget: goal.tokenBudget,
    tokensUsed: history.goalTokens,
    timeUsedSeconds: Math.floor(ranMs / 1000),
    createdAt: goal.createdAt,
    updatedAt: history.goalUpdatedAt ?? goal.createdAt,
  };
}

/** The goal after a set: a new objective starts a new goal; omitted fields keep their values. */
function nextGoal(current: StoredGoal | null, params: ParamsOf<'thread/goal/set'>, now: number): StoredGoal {
  const objective = params.objective == null ? undefined : params.objective.trim();
  if (objective === '') throw invalidParams('Invalid params: objective: must not be blank');
  if (!current && objective === undefined)
    throw invalidParams(`Invalid params: objective: thread ${params.threadId} has no goal yet; give one`);
  const fresh = !current || (objective !== undefined && objective !== current.objective);
  return {
    objective: objective ?? current!.objective,
    status: params.status ?? (fresh ? 'active' : current!.status),
    tokenBudget: params.tokenBudget !== undefined ? params.tokenBudget : (current?.tokenBudget ?? null),
    createdAt: fresh ? now : current!.createdAt,
  };
}

/** Stored git metadata after a patch: omitted keeps, null clears, a string replaces. */
function patchedGitInfo(current: GitInfo | null, patch: Partial<Record<keyof GitInfo, string | null>>) {
  const next: GitInfo = { sha: null, branch: null, originUrl: null, ...current };
  for (const key of ['sha', 'branch', 'originUrl'] as const) if (key in patch) next[key] = patch[key] ?? null;
  return next.sha === null && next.branch === null && next.originUrl === null ? null : next;
}

export function threadGoalHandlers(services: Services, sessions: ThreadSessions): HandlerTable {
  return {
    'thread/goal/get': async (params) => {
      const store = await services.store();
      return { goal: goalView(params.threadId, await store.history(params.threadId)) };
    },

    'thread/goal/set': async (params, { peer }) => {
      const store = await services.store();
      const now = Date.now();
      await store.appendFrom(params.threadId, (history) => [
        { type: 'goal_set', ts: now, goal: nextGoal(history.goal, params, Math.floor(now / 1000)) },
      ]);
      const goal = goalView(params.threadId, await store.history(params.threadId))!;
      sessions.announce(peer, params.threadId, 'thread/goal/updated', {
        threadId: params.threadId,
        turnId: services.loaded.get(params.threadId)?.turn?.turnId ?? null,
        goal,
      });
      return { goal };
    },

    'thread/goal/clear': async (params, { peer }) => {
      const store = await services.store();
      let cleared = false;
      await store.appendFrom(params.threadId, (history) => {
        cleared = history.goal !== null;
        return cleared ? [{ type: 'goal_set', ts: Date.now(), goal: null }] : [];
      });
      if (cleared)
        sessions.announce(peer, params.threadId, 'thread/goal/cleared', { threadId: params.threadId });
      return { cleared };
    },

    'thread/metadata/update': async (params) => {
      const store = await services.store();
      const patch = params.gitInfo;
      const summary = patch
        ? await store.appendFrom(params.threadId, (history) => [
            { type: 'git_info_set', ts: Date.now(), gitInfo: patchedGitInfo(history.meta.gitInfo, patch) },
          ])
        : store.require(params.threadId);
      return { thread: sessions.view(summary) };
    },
  };
}
