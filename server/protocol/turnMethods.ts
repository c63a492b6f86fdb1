// Params, results and notifications of a turn: starting, steering and interrupting it, compacting
// a thread, and the item and usage events a running turn streams.
import { Type } from '@sinclair/typebox';
import {
  ApprovalsReviewer,
  AskForApprovalInput,
  Personality,
  ReasoningEffort,
  SandboxPolicyInput,
} from './enums';
import { ThreadItem } from './items';
import { Experimental, Nullable, Opt, Params, Shape, StringEnum } from './schema';
import { Turn, TurnError } from './thread';
import { UserInput } from './userInput';

const ThreadId = { threadId: Type.String({ minLength: 1 }) };
const ItemRef = { threadId: Type.String(), turnId: Type.String(), itemId: Type.String() };

export const ReasoningSummary = StringEnum(['auto', 'concise', 'detailed', 'none']);

export const CollaborationMode = Type.Object({
  mode: StringEnum(['plan', 'default']),
  settings: Type.Object({
    model: Type.String(),
    reasoning_effort: Opt(ReasoningEffort),
    developer_instructions: Opt(Type.String()),
  }),
});

export const TurnStartParams = Params({
  ...ThreadId,
  input: Type.Array(UserInput),
  clientUserMessageId: Opt(Type.String()),
  cwd: Opt(Type.String()),
  approvalPolicy: Opt(AskForApprovalInput),
  approvalsReviewer: Opt(ApprovalsReviewer),
  sandboxPolicy: Opt(SandboxPolicyInput),
  model: Opt(Type.String()),
  effort: Opt(ReasoningEffort),
  summary: Opt(ReasoningSummary),
  personality: Opt(Personality),
  collaborationMode: Type.Optional(Experimental(Nullable(CollaborationMode))),
  outputSchema: Type.Optional(Type.Unknown()),
});
export const TurnResponse = Shape({ turn: Turn });

export const TurnSteerParams = Params({
  ...ThreadId,
  expectedTurnId: Type.String({ minLength: 1 }),
  input: Type.Array(UserInput),
  clientUserMessageId: Opt(Type.String()),
});
export const TurnSteerResponse = Shape({ turnId: Type.String() });

export const TurnInterruptParams = Params({ ...ThreadId, turnId: Type.String({ minLength: 1 }) });
export const ThreadCompactStartParams = Params(ThreadId);

const TokenUsageBreakdown = Type.Object({
  totalTokens: Type.Integer(),
  inputTokens: Type.Integer(),
  cachedInputTokens: Type.Integer(),
  cacheWriteInputTokens: Type.Integer(),
  outputTokens: Type.Integer(),
  reasoningOutputTokens: Type.Integer(),
});

export const TurnPlanStep = Type.Object({
  step: Type.String(),
  status: StringEnum(['pending', 'inProgress', 'completed']),
});

export const turnNotifications = {
  'turn/started': Shape({ threadId: Type.String(), turn: Turn }),
  'turn/completed': Shape({ threadId: Type.String(), turn: Turn }),
  'turn/plan/updated': Shape({
    threadId: Type.String(),
    turnId: Type.String(),
    explanation: Opt(Type.String()),
    plan: Type.Array(TurnPlanStep),
  }),
  'item/started': Shape({
    threadId: Type.String(),
    turnId: Type.String(),
    item: ThreadItem,
    startedAtMs: Type.Integer(),
  }),
  'item/completed': Shape({
    threadId: Type.String(),
    turnId: Type.String(),
    item: ThreadItem,
    completedAtMs: Type.Integer(),
  }),
  'item/agentMessage/delta': Shape({ ...ItemRef, delta: Type.String() }),
  'item/plan/delta': Shape({ ...ItemRef, delta: Type.String() }),
  'item/reasoning/summaryTextDelta': Shape({
    ...ItemRef,
    delta: Type.String(),
    summaryIndex: Type.Integer(),
  }),
  'item/reasoning/summaryPartAdded': Shape({ ...ItemRef, summaryIndex: Type.Integer() }),
  'item/reasoning/textDelta': Shape({ ...ItemRef, delta: Type.String(), contentIndex: Type.Integer() }),
  'thread/tokenUsage/updated': Shape({
    threadId: Type.String(),
    turnId: Type.String(),
    tokenUsage: Type.Object({
      total: TokenUsageBreakdown,
      last: TokenUsageBreakdown,
      modelContextWindow: Nullable(Type.Integer()),
    }),
  }),
  error: Shape({
    threadId: Type.String(),
    turnId: Type.String(),
    error: TurnError,
    willRetry: Type.Boolean(),
  }),
} as const;
