// What the agent loop asks of the user's hooks at its events (server/hooks runs them as commands).
// The loop knows only this interface: nothing here of processes, config or trust.
import type { ToolCall, ToolResult } from './tool';

export interface HookPoints {
  /**
   * The turn begins with the user's `prompt`: context the hooks give the model (SessionStart on a
   * thread's first turn, UserPromptSubmit), or why the prompt must not reach the model.
   */
  turnStarted(prompt: string): Promise<{ context: string[]; refused: string | null }>;
  /** Before a tool call runs: why it must not run (told to the model), or null to let it run. */
  beforeTool(call: ToolCall): Promise<string | null>;
  /** After a tool call ran: feedback for the model to read with the result, or null. */
  afterTool(call: ToolCall, result: ToolResult): Promise<string | null>;
  /**
   * The model answered without calling a tool: what it is asked to go on with, or null to end the
   * turn. `repeated` says the turn already went on once because of a stop hook.
   */
  stop(lastMessage: string, repeated: boolean): Promise<string | null>;
}
