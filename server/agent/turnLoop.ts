// The agent loop of one turn: send the conversation to the model, stream its answer into items,
// run the tools it called, and go again until it answers without calling any and nothing new was
// steered in. Compacts the history first when the context is nearly full.
import type { TurnError, TurnStatus } from '../protocol/thread';
import type { ConversationEntry, ModelClient, ModelRequest, RateLimits } from '../providers/types';
import { isModelError } from '../providers/types';
import type { ActiveTurn } from './activeTurn';
import { compact, needsCompaction, type CompactionLimits } from './compaction';
import { streamResponse } from './responseStream';
import type { ApprovalGate } from './approvalGate';
import type { HookPoints } from './hookPoints';
import type { AgentTool, ToolCall, ToolContext, ToolPermissions, ToolResult, TurnCheckpoint } from './tool';
import { ToolInputError } from './tool';
import type { TurnEmitter } from './turnEmitter';
import { isAbort, toTurnError } from './turnError';
import type { UsageTotals } from './usage';

export interface TurnSpec {
  client: ModelClient;
  /** Everything of the model request but the conversation and the tools. */
  request: Omit<ModelRequest, 'input' | 'tools'>;
  /** The model's history before this turn. */
  history: ConversationEntry[];
  /** What this turn adds before the first request (notes, the user's message). */
  input: ConversationEntry[];
  tools: AgentTool[];
  cwd: string;
  permissions: ToolPermissions;
  approvals: ApprovalGate;
  checkpoint: TurnCheckpoint;
  limits: CompactionLimits;
  usage: UsageTotals;
  /** Compact and stop (thread/compact/start) instead of asking the model to answer. */
  compactOnly?: boolean;
  /** A plan-mode turn: the <proposed_plan> block of an answer streams as a plan item. */
  planMode?: boolean;
  rateLimits?: (limits: RateLimits) => void;
  /** The user's hooks at the loop's events (server/hooks); none configured: undefined. */
  hooks?: HookPoints;
}

// A Stop hook may send the model back to work; past this many times in one turn the turn ends anyway.
const MAX_STOP_CONTINUATIONS = 3;

export interface TurnOutcome {
  status: Exclude<TurnStatus, 'inProgress'>;
  error: TurnError | null;
  /** The model's last message of a completed turn (a review's text). */
  finalMessage?: string;
}

export async function runTurn(spec: TurnSpec, active: ActiveTurn): Promise<TurnOutcome> {
  const { emit } = active;
  const loop = new Loop(spec, active, emit);
  try {
    await loop.run();
    return { status: 'completed', error: null, finalMessage: loop.finalMessage() };
  } catch (error) {
    const partial = (error as { partialEntries?: ConversationEntry[] }).partialEntries ?? [];
    await emit.modelEntries(partial).catch(() => {});
    if (isAbort(error) || active.interrupted) return { status: 'interrupted', error: null };
    const turnError = toTurnError(error);
    emit.turnEvent('error', { error: turnError, willRetry: false });
    return { status: 'failed', error: turnError };
  }
}

class Loop {
  private conversation: ConversationEntry[];
  private compactedThisTurn = false;
  private stopContinuations = 0;

  constructor(
    private readonly spec: TurnSpec,
    private readonly active: ActiveTurn,
    private readonly emit: TurnEmitter,
  ) {
    this.conversation = [...spec.history];
  }

  finalMessage(): string {
    const last = this.conversation.findLast((entry) => entry.kind === 'assistant');
    return last?.kind === 'assistant' ? last.text : '';
  }

  async run(): Promise<void> {
    await this.add([...this.spec.input, ...(await this.openingContext())]);
    if (this.spec.compactOnly) return this.compact();
    for (;;) {
      await this.add(this.active.takeSteeredInput());
      if (needsCompaction(this.spec.limits, this.spec.usage.lastContextTokens) && !this.compactedThisTurn) {
        await this.compact();
      }
      const toolCalls = await this.respond();
      for (const call of toolCalls) await this.add([await this.runTool(call)]);
      if (toolCalls.length === 0 && !this.active.hasSteeredInput() && !(await this.goesOn())) return;
    }
  }

  /** What the hooks at the turn's start tell the model; a prompt they refuse fails the turn unsent. */
  private async openingContext(): Promise<ConversationEntry[]> {
    if (!this.spec.hooks || this.spec.compactOnly) return [];
    const prompt = this.spec.input.flatMap((entry) =>
      entry.kind === 'user' ? entry.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : [],
    );
    const { context, refused } = await this.spec.hooks.turnStarted(prompt.join('\n'));
    if (refused !== null) throw new Error(`A UserPromptSubmit hook refused this prompt: ${refused}`);
    return context.map((text) => ({ kind: 'developer', text }));
  }

  /** Whether a Stop hook sends the model back to work (with what it asked, in the conversation). */
  private async goesOn(): Promise<boolean> {
    const { hooks } = this.spec;
    if (!hooks || this.stopContinuations >= MAX_STOP_CONTINUATIONS) return false;
    const more = await hooks.stop(this.finalMessage(), this.stopContinuations > 0);
    if (more === null) return false;
    this.stopContinuations += 1;
    await this.add([{ kind: 'developer', text: `A Stop hook asks you to continue: ${more}` }]);
    return true;
  }

  private async respond(): Promise<ToolCall[]> {
    const { client, request, tools, usage, limits } = this.spec;
    const modelRequest = { ...request, input: this.conversation, tools: tools.map((t) => t.spec) };
    let outcome;
    try {
      outcome = await streamResponse(client, modelRequest, this.emit, this.active.signal, {
        planMode: this.spec.planMode ?? false,
        rateLimits: this.spec.rateLimits,
      });
    } catch (error) {
      // A history too long for the model gets one compaction and one more try.
      if (isModelError(error) && error.kind === 'contextWindowExceeded' && !this.compactedThisTurn) {
        await this.compact();
        return this.respond();
      }
      throw error;
    }
    if (outcome.usage) {
      usage.record(outcome.usage, limits.contextWindow, this.emit);
      await this.emit.tokensUsed(request.model, request.reasoningEffort, outcome.usage);
    }
    await this.add(outcome.entries);
    return outcome.toolCalls;
  }

  private async runTool(call: ToolCall): Promise<ConversationEntry> {
    const tool = this.spec.tools.find((t) => t.spec.name === call.name);
    const context: ToolContext = {
      threadId: this.emit.threadId,
      turnId: this.emit.turnId,
      cwd: this.spec.cwd,
      signal: this.active.signal,
      emit: this.emit,
      permissions: this.spec.permissions,
      approvals: this.spec.approvals,
      checkpoint: this.spec.checkpoint,
    };
    const refused = await this.spec.hooks?.beforeTool(call);
    if (refused)
      return { kind: 'toolResult', callId: call.callId, custom: call.custom, output: refused, isError: true };
    const result: ToolResult = tool
      ? await tool.run(call, context).catch((error: unknown) => {
          if (error instanceof ToolInputError) return { output: error.message, isError: true };
          throw error;
        })
      : { output: `unknown tool: ${call.name}`, isError: true };
    const feedback = await this.spec.hooks?.afterTool(call, result);
    const output = feedback ? withFeedback(result.output, feedback) : result.output;
    return { kind: 'toolResult', callId: call.callId, custom: call.custom, ...result, output };
  }

  private async compact(): Promise<void> {
    this.compactedThisTurn = true;
    const { client, request, tools } = this.spec;
    const { signal } = this.active;
    this.conversation = await compact(client, request, tools, this.conversation, this.emit, signal);
    this.spec.usage.lastContextTokens = 0;
  }

  private async add(entries: ConversationEntry[]): Promise<void> {
    if (entries.length === 0) return;
    this.conversation.push(...entries);
    await this.emit.modelEntries(entries);
  }
}

/** A PostToolUse hook's feedback, after what the tool returned. */
function withFeedback(output: ToolResult['output'], feedback: string): ToolResult['output'] {
  const note = `[PostToolUse hook] ${feedback}`;
  return typeof output === 'string' ? `${output}\n\n${note}` : [...output, { type: 'text', text: note }];
}
