// A thread's goal (an objective the model works toward across turns) and its metadata patch, as
// the reference schema (Codex 0.169) defines them.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape, StringEnum } from './schema';
import { Thread } from './thread';

const ThreadId = { threadId: Type.String({ minLength: 1 }) };

export const ThreadGoalStatus = StringEnum([
  'active',
  'paused',
  'blocked',
  'usageLimited',
  'budgetLimited',
  'complete',
]);
export type ThreadGoalStatus = Static<typeof ThreadGoalStatus>;

/** Who changed the goal; missing provenance does not supply user authorization. */
export const ThreadGoalMutationOrigin = StringEnum(['user', 'automatic']);

export const ThreadGoal = Type.Object({
  threadId: Type.String(),
  objective: Type.String(),
  status: ThreadGoalStatus,
  tokenBudget: Nullable(Type.Integer()),
  tokensUsed: Type.Integer(),
  timeUsedSeconds: Type.Integer(),
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
});
export type ThreadGoal = Static<typeof ThreadGoal>;

export const ThreadGoalSetParams = Params({
  ...ThreadId,
  objective: Opt(Type.String()),
  status: Opt(ThreadGoalStatus),
  tokenBudget: Opt(Type.Integer({ minimum: 0 })),
  origin: Opt(ThreadGoalMutationOrigin),
});
export const ThreadGoalSetResponse = Shape({ goal: ThreadGoal });

export const ThreadGoalGetParams = Params(ThreadId);
export const ThreadGoalGetResponse = Shape({ goal: Nullable(ThreadGoal) });

export const ThreadGoalClearParams = Params({ ...ThreadId, origin: Opt(ThreadGoalMutationOrigin) });
export const ThreadGoalClearResponse = Shape({ cleared: Type.Boolean() });

/** Omitted: unchanged; null: cleared; a non-empty string: replaced. */
const GitField = Type.Optional(Nullable(Type.String({ minLength: 1 })));
export const ThreadMetadataUpdateParams = Params({
  ...ThreadId,
  gitInfo: Opt(Type.Object({ sha: GitField, branch: GitField, originUrl: GitField })),
});
export const ThreadMetadataUpdateResponse = Shape({ thread: Thread });

export const threadGoalNotifications = {
  'thread/goal/updated': Shape({
    threadId: Type.String(),
    turnId: Opt(Type.String()),
    goal: ThreadGoal,
  }),
  'thread/goal/cleared': Shape({ threadId: Type.String() }),
} as const;
