// Thread items: what a turn is made of. Every item has a `type` and an `id`; the agent issue adds
// the tool-call items, and readers must tolerate types they do not know (the protocol grows).
import { Type, type Static } from '@sinclair/typebox';
import { Opt, StringEnum } from './schema';
import { UserInput } from './userInput';
import { CommandExecutionItem } from './commandExecution';
import { FileChangeItem } from './fileChange';
import { DynamicToolCallItem, ImageViewItem } from './toolCallItems';
import { EnteredReviewModeItem, ExitedReviewModeItem } from './reviewItems';
import { McpToolCallItem } from './mcp';

export const MessagePhase = StringEnum(['commentary', 'final_answer']);

export const UserMessageItem = Type.Object({
  type: Type.Literal('userMessage'),
  id: Type.String(),
  content: Type.Array(UserInput),
  clientId: Opt(Type.String()),
});

export const AgentMessageItem = Type.Object({
  type: Type.Literal('agentMessage'),
  id: Type.String(),
  text: Type.String(),
  phase: Opt(MessagePhase),
});

export const ReasoningItem = Type.Object({
  type: Type.Literal('reasoning'),
  id: Type.String(),
  summary: Type.Array(Type.String()),
  content: Type.Array(Type.String()),
});

export const PlanItem = Type.Object({ type: Type.Literal('plan'), id: Type.String(), text: Type.String() });

export const ContextCompactionItem = Type.Object({
  type: Type.Literal('contextCompaction'),
  id: Type.String(),
});

export const ThreadItem = Type.Union([
  UserMessageItem,
  AgentMessageItem,
  ReasoningItem,
  PlanItem,
  ContextCompactionItem,
  CommandExecutionItem,
  FileChangeItem,
  ImageViewItem,
  DynamicToolCallItem,
  McpToolCallItem,
  EnteredReviewModeItem,
  ExitedReviewModeItem,
]);
export type ThreadItem = Static<typeof ThreadItem>;
export type UserMessageItem = Static<typeof UserMessageItem>;
export type AgentMessageItem = Static<typeof AgentMessageItem>;
export type ReasoningItem = Static<typeof ReasoningItem>;
export type ContextCompactionItem = Static<typeof ContextCompactionItem>;
export type PlanItem = Static<typeof PlanItem>;
