// What the agent loop needs from a tool: a spec to offer the model and a way to run a call. Tools
// live in server/tools; the loop sees only this interface.
import type { AskForApproval, SandboxPolicy } from '../protocol/enums';
import type { ContentPart, ConversationEntry, ToolSpec } from '../providers/types';
import type { ApprovalGate } from './approvalGate';
import type { TurnEmitter } from './turnEmitter';

export type ToolCall = Extract<ConversationEntry, { kind: 'toolCall' }>;

/** What the user allows this turn's tools to do without asking, and how commands are confined. */
export interface ToolPermissions {
  approvalPolicy: AskForApproval;
  /** onFailure: a command that fails in the sandbox may be approved to run again outside it. */
  retryUnsandboxedOnFailure: boolean;
  sandboxPolicy: SandboxPolicy;
  /**
   * Plan mode: nothing may change. Patches are refused, commands run only when known to read (in a
   * read-only sandbox where there is one), MCP tools only when they say they only read.
   */
  planning?: boolean;
}

export interface ToolContext {
  threadId: string;
  turnId: string;
  cwd: string;
  signal: AbortSignal;
  emit: TurnEmitter;
  permissions: ToolPermissions;
  /** Asks the user (see server/approvals/approvals.ts for the steps a tool follows). */
  approvals: ApprovalGate;
  checkpoint: TurnCheckpoint;
}

export interface ToolResult {
  output: string | ContentPart[];
  isError?: boolean;
}

export interface AgentTool {
  spec: ToolSpec;
  run(call: ToolCall, context: ToolContext): Promise<ToolResult>;
}

/** Parses a function tool's JSON arguments, with an error the model can act on. */
export function parseArguments(call: ToolCall): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(call.arguments || '{}');
  } catch {
    throw new ToolInputError(`the arguments of ${call.name} are not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolInputError(`the arguments of ${call.name} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** A call the model got wrong: reported back to it as the tool's output, never a turn failure. */
export class ToolInputError extends Error {}

/** One file a patch is about to write: its bytes before and after (null: no such file). */
export interface PatchWrite {
  path: string;
  target: string;
  before: Buffer | null;
  after: Buffer | null;
}

/**
 * Records what the turn's tools change on disk so the turn can be undone (server/checkpoints).
 * Each call keeps what it needs before the change; the function it returns records the change
 * once made. Recording never fails a tool: what cannot be kept becomes a note on the turn.
 */
export interface TurnCheckpoint {
  beforePatch(writes: PatchWrite[]): Promise<() => Promise<void>>;
  /** `policy` null: the command runs unconfined. */
  beforeCommand(cwd: string, policy: SandboxPolicy | null): Promise<(label: string) => Promise<void>>;
}
