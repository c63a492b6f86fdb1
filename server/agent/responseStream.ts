// Plays one model response into items: each message or reasoning block becomes an item that is
// started, streamed as deltas and completed. What the model said becomes conversation entries,
// and tool calls are collected for the loop to run once the response is complete.
//
// A response cut off and retried: what the cut attempt said is void, but its items are not
// completed (nothing cut off is stored). They stay open, and the retry's messages and reasoning
// blocks continue them in order, under the same ids, since clients render deltas by item id: while
// the retry repeats what the client already has, nothing is sent; beyond it, the rest streams as
// usual. A retry that says something else cannot be mended by more deltas: that item streams no
// more, and its completion carries the retry's text, which clients take as the item's final state.
// An item the retry does not continue stays unfinished, as a cut item does in Codex.
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
import { PartsCatchup, StreamCatchup } from './streamCatchup';
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
  /** Continued from a cut attempt: what the client has of it, matched against the retry. */
  catchup: StreamCatchup | null;
  /** The retry said something else than the client has: its text goes in the completion only. */
  quiet: boolean;
}

interface OpenReasoning {
  kind: 'reasoning';
  item: ReasoningItem;
  /** Continued from a cut attempt: what the client has of each part. */
  catchup: PartsCatchup | null;
}

type Open = OpenMessage | OpenReasoning;

/** Keys of the items a cut attempt left open, for the retry to continue (no provider key looks so). */
const CARRIED = '\0carried:';

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
        attempt.retry();
        emit.turnEvent('error', { error: toTurnError(event.error), willRetry: true });
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
  private carried = 0;

  constructor(
    private readonly emit: TurnEmitter,
    private readonly options: StreamOptions,
  ) {}

  /** Starts over after a cut: what was said is void; open items wait for the retry to continue them. */
  retry(): void {
    const open = [...this.open.values()];
    this.open.clear();
    for (const item of open) this.open.set(`${CARRIED}${this.carried++}`, item);
    this.entries = [];
    this.toolCalls = [];
  }

  async apply(event: Exclude<ModelEvent, { type: 'completed' | 'retrying' | 'rateLimits' }>): Promise<void> {
    switch (event.type) {
      case 'messageStart': {
        const carried = this.takeCarried('message');
        if (carried) return this.continueMessage(event.key, carried);
        return this.start(event.key, {
          kind: 'message',
          item: { type: 'agentMessage', id: randomUUID(), text: '' },
          deltas: [],
          shown: [],
          splitter: this.splitter(),
          plan: null,
          catchup: null,
          quiet: false,
        });
      }
      case 'messageDelta':
        return this.take(this.message(event.key), event.delta);
      case 'messageDone':
        return this.finishMessage(event.key, event.text);
      case 'reasoningStart': {
        const carried = this.takeCarried('reasoning');
        if (carried) return this.continueReasoning(event.key, carried);
        return this.start(event.key, {
          kind: 'reasoning',
          item: { type: 'reasoning', id: randomUUID(), summary: [], content: [] },
          catchup: null,
        });
      }
      case 'reasoningSummaryPartAdded': {
        const { item, catchup } = this.reasoning(event.key);
        grow(item.summary, event.summaryIndex);
        if (catchup?.knows(`s${event.summaryIndex}`)) return;
        this.emit.itemDelta('item/reasoning/summaryPartAdded', {
          itemId: item.id,
          summaryIndex: event.summaryIndex,
        });
        return;
      }
      case 'reasoningSummaryDelta': {
        const { item, catchup } = this.reasoning(event.key);
        grow(item.summary, event.summaryIndex);
        item.summary[event.summaryIndex] += event.delta;
        const delta = catchup ? catchup.pass(`s${event.summaryIndex}`, event.delta) : event.delta;
        if (!delta) return;
        this.emit.itemDelta('item/reasoning/summaryTextDelta', {
          itemId: item.id,
          delta,
          summaryIndex: event.summaryIndex,
        });
        return;
      }
      case 'reasoningTextDelta': {
        const { item, catchup } = this.reasoning(event.key);
        grow(item.content, event.contentIndex);
        item.content[event.contentIndex] += event.delta;
        const delta = catchup ? catchup.pass(`c${event.contentIndex}`, event.delta) : event.delta;
        if (!delta) return;
        this.emit.itemDelta('item/reasoning/textDelta', {
          itemId: item.id,
          delta,
          contentIndex: event.contentIndex,
        });
        return;
      }
      case 'reasoningDone': {
        const { item } = this.reasoning(event.key);
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
    // Items of a cut attempt the retry did not continue: their text was not said again.
    for (const key of this.open.keys()) if (key.startsWith(CARRIED)) this.open.delete(key);
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

  /** The first item of the kind a cut attempt left open, taken for the retry to continue. */
  private takeCarried<K extends Open['kind']>(kind: K): Extract<Open, { kind: K }> | undefined {
    for (const [key, open] of this.open) {
      if (key.startsWith(CARRIED) && open.kind === kind) {
        this.open.delete(key);
        return open as Extract<Open, { kind: K }>;
      }
    }
    return undefined;
  }

  /** The retry's message continues a cut one: the client has what was sent of it (nothing, if quiet). */
  private continueMessage(key: string, open: OpenMessage): void {
    const sent = open.quiet ? null : (open.catchup?.sent ?? open.deltas.join(''));
    open.deltas = [];
    open.catchup = sent === null ? null : new StreamCatchup(sent);
    if (open.quiet) [open.shown, open.splitter] = [[], this.splitter()];
    this.open.set(key, open);
  }

  /** The same for reasoning; one cut twice is not mended (its completion carries the text). */
  private continueReasoning(key: string, open: OpenReasoning): void {
    const { item } = open;
    const sent = new Map([
      ...item.summary.map((text, i) => [`s${i}`, text] as const),
      ...item.content.map((text, i) => [`c${i}`, text] as const),
    ]);
    open.catchup = new PartsCatchup(open.catchup ? null : sent);
    [item.summary, item.content] = [[], []];
    this.open.set(key, open);
  }

  /** A delta of the model's text: kept whole, shown as far as the client lacks it. */
  private async take(open: OpenMessage, delta: string): Promise<void> {
    open.deltas.push(delta);
    if (!open.catchup) return this.show(open, delta);
    const rest = open.catchup.pass(delta);
    if (rest === null) return this.quiet(open);
    if (open.catchup.caughtUp) open.catchup = null;
    if (rest) await this.show(open, rest);
  }

  /** The retry says something else than the client has: the message is rebuilt from it, unstreamed. */
  private async quiet(open: OpenMessage): Promise<void> {
    [open.catchup, open.quiet, open.shown, open.splitter] = [null, true, [], this.splitter()];
    await this.show(open, open.deltas.join(''));
  }

  private splitter(): ProposedPlanSplitter | null {
    return this.options.planMode ? new ProposedPlanSplitter() : null;
  }

  private async finishMessage(key: string, finalText: string): Promise<void> {
    const open = this.message(key);
    this.open.delete(key);
    let text: string;
    // The final text usually is the deltas joined: then it is the message's text, and the deltas
    // are never joined into a second copy (a long answer is megabytes).
    const said = saidLength(finalText, open.deltas);
    if (said !== undefined) {
      // The completed item must equal its deltas: send whatever the deltas missed as one more.
      if (finalText.length > said) await this.take(open, finalText.slice(said));
      text = finalText;
    } else text = open.deltas.join('');
    // A retry that ended short of what the client has: the completion says what it did say.
    if (open.catchup) await this.quiet(open);
    for (const segment of open.splitter?.end() ?? []) await this.showSegment(open, segment);
    // Without a plan to split off, the message shows what the model said.
    open.item.text = open.splitter ? open.shown.join('') : text;
    // The pieces are let go before the completion is written and sent, which takes a while for a
    // long answer: held until then, they were a copy of it beside the text and its JSON.
    [open.deltas, open.shown] = [[], []];
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
        if (!open.quiet)
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

  private reasoning(key: string): OpenReasoning {
    const open = this.open.get(key);
    if (open?.kind !== 'reasoning')
      throw new Error(`the model stream sent reasoning for an unknown block (${key})`);
    return open;
  }
}

/** The length of the deltas when `text` begins with all of them, in order; undefined if it does not. */
function saidLength(text: string, deltas: string[]): number | undefined {
  let at = 0;
  for (const delta of deltas) {
    if (!text.startsWith(delta, at)) return undefined;
    at += delta.length;
  }
  return at;
}

function grow(parts: string[], index: number): void {
  while (parts.length <= index) parts.push('');
}
