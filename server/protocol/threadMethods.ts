// Params and results of the thread lifecycle methods.
import { Type, type Static } from '@sinclair/typebox';
import {
  ApprovalsReviewer,
  AskForApproval,
  AskForApprovalInput,
  Personality,
  ReasoningEffort,
  SandboxModeInput,
  SandboxPolicy,
  SortDirection,
  ThreadSortKey,
  ThreadSourceKind,
} from './enums';
import { EmptyObject, Experimental, Nullable, Opt, Params, Shape } from './schema';
import { Thread, Turn, TurnItemsView } from './thread';
import { WorktreeStartOption } from './worktreeMethods';

const ThreadId = { threadId: Type.String({ minLength: 1 }) };

/** Settings a client may override when it starts, resumes or forks a thread. */
const threadOverrides = {
  model: Opt(Type.String()),
  modelProvider: Opt(Type.String()),
  cwd: Opt(Type.String()),
  approvalPolicy: Opt(AskForApprovalInput),
  approvalsReviewer: Opt(ApprovalsReviewer),
  sandbox: Opt(SandboxModeInput),
  config: Opt(Type.Record(Type.String(), Type.Unknown())),
  baseInstructions: Opt(Type.String()),
  developerInstructions: Opt(Type.String()),
  personality: Opt(Personality),
  ephemeral: Opt(Type.Boolean()),
  persistExtendedHistory: Type.Optional(Experimental(Type.Boolean())),
};

export const DynamicToolSpec = Type.Object({
  name: Type.String({ minLength: 1 }),
  description: Type.String(),
  inputSchema: Type.Unknown(),
});
export type DynamicToolSpec = Static<typeof DynamicToolSpec>;

export const ThreadStartParams = Params({
  ...threadOverrides,
  dynamicTools: Type.Optional(Experimental(Nullable(Type.Array(DynamicToolSpec)))),
  /** Threadline's own: run the thread in a new git worktree and branch (server/git/worktrees.ts). */
  worktree: Type.Optional(Experimental(Nullable(WorktreeStartOption))),
});

/** What thread/start, thread/resume and thread/fork answer: the thread and its effective settings. */
export const ThreadSessionResponse = Shape({
  thread: Thread,
  model: Type.String(),
  modelProvider: Type.String(),
  cwd: Type.String(),
  approvalPolicy: AskForApproval,
  approvalsReviewer: ApprovalsReviewer,
  sandbox: SandboxPolicy,
  reasoningEffort: Nullable(ReasoningEffort),
  /** For thread/resume: where a client paging through the turns newest-first starts. */
  turnsBackwardsCursor: Opt(Type.String()),
});

export const ThreadResumeParams = Params({
  ...ThreadId,
  ...threadOverrides,
  excludeTurns: Opt(Type.Boolean()),
});

export const ThreadForkParams = Params({
  ...ThreadId,
  ...threadOverrides,
  excludeTurns: Opt(Type.Boolean()),
  lastTurnId: Opt(Type.String()),
});

export const ThreadReadParams = Params({ ...ThreadId, includeTurns: Opt(Type.Boolean()) });
export const ThreadResponse = Shape({ thread: Thread });

export const ThreadListParams = Params({
  cursor: Opt(Type.String()),
  limit: Opt(Type.Integer({ minimum: 0 })),
  sortKey: Opt(ThreadSortKey),
  sortDirection: Opt(SortDirection),
  modelProviders: Opt(Type.Array(Type.String())),
  sourceKinds: Opt(Type.Array(ThreadSourceKind)),
  archived: Opt(Type.Boolean()),
  cwd: Opt(Type.Union([Type.String(), Type.Array(Type.String())])),
  searchTerm: Opt(Type.String()),
  /** Omitted: every thread; null: those in no section; an id: that section's threads. */
  sectionId: Opt(Type.String()),
});
export const ThreadListResponse = Shape({ data: Type.Array(Thread), nextCursor: Nullable(Type.String()) });

export const ThreadLoadedListParams = Params({
  cursor: Opt(Type.String()),
  limit: Opt(Type.Integer({ minimum: 0 })),
});
export const ThreadLoadedListResponse = Shape({
  data: Type.Array(Type.String()),
  nextCursor: Nullable(Type.String()),
});

export const ThreadNameSetParams = Params({ ...ThreadId, name: Type.String() });
export const ThreadIdParams = Params(ThreadId);
export const EmptyResponse = EmptyObject;

export const ThreadUnsubscribeResponse = Shape({
  status: Type.Union([
    Type.Literal('unsubscribed'),
    Type.Literal('notSubscribed'),
    Type.Literal('notLoaded'),
  ]),
});

export const ThreadRollbackParams = Params({
  ...ThreadId,
  numTurns: Type.Integer({ minimum: 1 }),
  /** Threadline's own: also put back the files the dropped turns changed (all or nothing). */
  revertFiles: Type.Optional(Experimental(Nullable(Type.Boolean()))),
});
export const ThreadRevertParams = Params({ ...ThreadId, beforeTurnId: Type.String({ minLength: 1 }) });

export const ThreadTurnsListParams = Params({
  ...ThreadId,
  cursor: Opt(Type.String()),
  limit: Opt(Type.Integer({ minimum: 0 })),
  sortDirection: Opt(SortDirection),
  itemsView: Opt(TurnItemsView),
});
export const ThreadTurnsListResponse = Shape({
  data: Type.Array(Turn),
  nextCursor: Nullable(Type.String()),
  backwardsCursor: Nullable(Type.String()),
});
