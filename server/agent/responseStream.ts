// Plays one model response into items: each message or reasoning block becomes an item that is
// started, streamed as deltas and completed. What the model said becomes conversation entries,
// and tool calls are collected for the loop to run once the response is complete.
import { randomUUID } from 'node:crypto';
import type { AgentMessageItem, PlanItem, ReasoningItem } from '../protocol/items';
import type {
  ConversationEntry,
  ModelClient,
  ModelEvent,
  ModelRequest,
  RateLimits,
  TokenUsage,
} from '../providers/types';
import { ProposedPlanSplitter, type PlanSegment } from './proposedPlan';
import type { ToolCall } from './tool';
import type { TurnEmitter } from './turnEmitter';
import { toTurnError } from './turnError';

export interface ResponseOutcome {
  /** What the model said, in order, tool calls included. */
  entries: ConversationEntry[];
  toolCalls: ToolCall[];
  usage: TokenUsage | null;
}

interface OpenMessage {
  kind: 'message';
  item: AgentMessageItem;
  /** What the model sent, tags and all: the conversation keeps it whole. */
  deltas: string[];
  /** What the message item shows: the same, minus a proposed plan in plan mode. */
  shown: string[];
  splitter: ProposedPlanSplitter | null;
  plan: { item: PlanItem; parts: string[] } | null;
}

type Open = OpenMessage | { kind: 'reasoning'; item: ReasoningItem };

export interface StreamOptions {
  /** Stream a <proposed_plan> block as its own plan item. */
  planMode: boolean;
  /** The provider's rate limits, as its response headers report them. */
  rateLimits?: (limits: RateLimits) => void;
}

/** Streams one response; on abort, open items are completed with what arrived and the error is rethrown. */
export async function streamResponse(
  client: ModelClient,
  request: ModelRequest,
  emit: TurnEmitter,
  signal: AbortSignal,
  options: StreamOptions = { planMode: false },
): Promise<ResponseOutcome> {
  const attempt = new Attempt(emit, options);
  try {
    for await (const event of client.stream(request, signal)) {
      if (event.type === 'completed') return await attempt.finish(event.usage);
      if (event.type === 'rateLimits') {
        options.rateLimits?.(event.limits);
        continue;
      }
      if (event.type === 'retrying') {
        await attempt.closeOpenItems();
        emit.turnEvent('error', { error: toTurnError(event.error), willRetry: true });
        attempt.reset();
        continue;
      }
      await attempt.apply(event);
    }
    throw new Error('the model stream ended without completing');
  } catch (error) {
    await attempt.closeOpenItems();
    throw Object.assign(error as Error, { partialEntries: attempt.partialEntries() });
  }
}

/** The state of the current try at a response; a retry starts a fresh one. */
class Attempt {
  private open = new Map<string, Open>();
  private entries: ConversationEntry[] = [];
  private toolCalls: ToolCall[] = [];

  constructor(
    private readonly emit: TurnEmitter,
    private readonly options: StreamOptions,
  ) {}

  reset(): void {
    this.open.clear();
    this.entries = [];
    this.toolCalls = [];
  }

  async apply(event: Exclude<ModelEvent, { type: 'completed' | 'retrying' | 'rateLimits' }>): Promise<void> {
    switch (event.type) {
      case 'messageStart':
        return this.start(event.key, {
          kind: 'message',
          item: { type: 'agentMessage', id: randomUUID(), text: '' },
          deltas: [],
          shown: [],
          splitter: this.options.planMode ? new ProposedPlanSplitter() : null,
          plan: null,
        });
      case 'messageDelta': {
        const open = this.message(event.key);
        open.deltas.push(event.delta);
        return this.show(open, event.delta);
      }
      case 'messageDone':
        return this.finishMessage(event.key, event.text);
      case 'reasoningStart':
        return this.start(event.key, {
          kind: 'reasoning',
          item: { type: 'reasoning', id: randomUUID(), summary: [], content: [] },
        });
      case 'reasoningSummaryPartAdded': {
        const item = this.reasoning(event.key);
        grow(item.summary, event.summaryIndex);
        this.emit.itemDelta('item/reasoning/summaryPartAdded', {
          itemId: item.id,
          summaryIndex: event.summaryIndex,
        });
        return;
      }
      case 'reasoningSummaryDelta': {
        const item = this.reasoning(event.key);
        grow(item.summary, event.summaryIndex);
        item.summary[event.summaryIndex] += event.delta;
        this.emit.itemDelta('item/reasoning/summaryTextDelta', {
          itemId: item.id,
          delta: event.delta,
          summaryIndex: event.summaryIndex,
        });
        return;
      }
      case 'reasoningTextDelta': {
        const item = this.reasoning(event.key);
        grow(item.content, event.contentIndex);
        item.content[event.contentIndex] += event.delta;
        this.emit.itemDelta('item/reasoning/textDelta', {
          itemId: item.id,
          delta: event.delta,
          contentIndex: event.contentIndex,
        });
        return;
      }
      case 'reasoningDone': {
        const item = this.reasoning(event.key);
        this.open.delete(event.key);
        this.entries.push(event.entry);
        await this.emit.itemCompleted(item);
        return;
      }
      case 'toolCall':
        this.entries.push(event.call);
        this.toolCalls.push(event.call);
        return;
    }
  }

  async finish(usage: TokenUsage | null): Promise<ResponseOutcome> {
    await this.closeOpenItems();
    return { entries: this.entries, toolCalls: this.toolCalls, usage };
  }

  /** Completes every item still streaming, keeping what arrived (an interrupt or a retry). */
  async closeOpenItems(): Promise<void> {
    for (const [key, open] of [...this.open]) {
      if (open.kind === 'message') await this.finishMessage(key, open.deltas.join(''));
      else {
        this.open.delete(key);
        await this.emit.itemCompleted(open.item);
      }
    }
  }

  /** What the model had said when the response broke off: kept so the next turn knows. */
  partialEntries(): ConversationEntry[] {
    return this.entries.filter((entry) => entry.kind === 'assistant');
  }

  private start(key: string, open: Open): void {
    this.open.set(key, open);
    this.emit.itemStarted(open.item);
  }

  private async finishMessage(key: string, finalText: string): Promise<void> {
    const open = this.message(key);
    this.open.delete(key);
    let text = open.deltas.join('');
    // The completed item must equal its deltas: send whatever the deltas missed as one more.
    if (finalText.startsWith(text) && finalText.length > text.length) {
      await this.show(open, finalText.slice(text.length));
      text = finalText;
    }
    for (const segment of open.splitter?.end() ?? []) await this.showSegment(open, segment);
    open.item.text = open.shown.join('');
    if (text) this.entries.push({ kind: 'assistant', text });
    await this.emit.itemCompleted(open.item);
  }

  private async show(open: OpenMessage, delta: string): Promise<void> {
    if (!open.splitter) return this.showSegment(open, { kind: 'text', text: delta });
    for (const segment of open.splitter.push(delta)) await this.showSegment(open, segment);
  }

  private async showSegment(open: OpenMessage, segment: PlanSegment): Promise<void> {
    switch (segment.kind) {
      case 'text':
        open.shown.push(segment.text);
        this.emit.itemDelta('item/agentMessage/delta', { itemId: open.item.id, delta: segment.text });
        return;
      case 'planStart':
        open.plan = { item: { type: 'plan', id: randomUUID(), text: '' }, parts: [] };
        this.emit.itemStarted(open.plan.item);
        return;
      case 'plan':
        open.plan!.parts.push(segment.text);
        this.emit.itemDelta('item/plan/delta', { itemId: open.plan!.item.id, delta: segment.text });
        return;
      case 'planEnd': {
        const plan = open.plan!;
        open.plan = null;
        plan.item.text = plan.parts.join('');
        await this.emit.itemCompleted(plan.item);
        return;
      }
    }
  }

  private message(key: string): OpenMessage {
    const open = this.open.get(key);
    if (open?.kind !== 'message')
      throw new Error(`the model stream sent text for an unknown message (${key})`);
    return open;
  }

  private reasoning(key: string): ReasoningItem {
    const open = this.open.get(key);
    if (open?.kind !== 'reasoning')
      throw new Error(`the model stream sent reasoning for an unknown block (${key})`);
    return open.item;
  }
}

function grow(parts: string[], index: number): void {
  while (parts.length <= index) parts.push('');
}
