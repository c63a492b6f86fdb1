// The commandExecution item: a shell command the agent (or the user) ran, with what it was parsed
// to do, its live output and how it ended.
import { Type, type Static } from '@sinclair/typebox';
import { Opt, Shape, StringEnum } from './schema';

/** A best-effort reading of one command in a command line, for friendly display. */
export const CommandAction = Type.Union([
  Type.Object({
    type: Type.Literal('read'),
    command: Type.String(),
    name: Type.String(),
    path: Type.String(),
  }),
  Type.Object({ type: Type.Literal('listFiles'), command: Type.String(), path: Opt(Type.String()) }),
  Type.Object({
    type: Type.Literal('search'),
    command: Type.String(),
    query: Opt(Type.String()),
    path: Opt(Type.String()),
  }),
  Type.Object({ type: Type.Literal('unknown'), command: Type.String() }),
]);
export type CommandAction = Static<typeof CommandAction>;

export const CommandExecutionStatus = StringEnum(['inProgress', 'completed', 'failed', 'declined']);
export type CommandExecutionStatus = Static<typeof CommandExecutionStatus>;

export const CommandExecutionSource = StringEnum([
  'agent',
  'userShell',
  'unifiedExecStartup',
  'unifiedExecInteraction',
]);

export const CommandExecutionItem = Type.Object({
  type: Type.Literal('commandExecution'),
  id: Type.String(),
  command: Type.String(),
  cwd: Type.String(),
  commandActions: Type.Array(CommandAction),
  status: CommandExecutionStatus,
  source: Type.Optional(CommandExecutionSource),
  /** The session id of a command that keeps running in the background. */
  processId: Opt(Type.String()),
  aggregatedOutput: Opt(Type.String()),
  exitCode: Opt(Type.Integer()),
  durationMs: Opt(Type.Integer()),
});
export type CommandExecutionItem = Static<typeof CommandExecutionItem>;

export const commandExecutionNotifications = {
  'item/commandExecution/outputDelta': Shape({
    threadId: Type.String(),
    turnId: Type.String(),
    itemId: Type.String(),
    delta: Type.String(),
  }),
} as const;
