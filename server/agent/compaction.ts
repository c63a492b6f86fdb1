// Compaction: the model summarizes the conversation so far, and the summary replaces it. Shown as
// one contextCompaction item; recorded so every later turn (and a resumed thread) starts from it.
// The request offers the thread's own tools (the model is told to answer with text) so it reads
// the cached system prompt and tools; the context messages survive it, so the model still knows
// where it works.
import { randomUUID } from 'node:crypto';
import type { ContextCompactionItem } from '../protocol/items';
import type { ConversationEntry, ModelClient, ModelRequest, TokenUsage, ToolSpec } from '../providers/types';
import { isContextEntry } from './environmentContext';
import { COMPACTION_PROMPT, SUMMARY_PREFIX } from './instructions';
import type { TurnEmitter } from './turnEmitter';

/** How many of the most recent user messages survive compaction verbatim. */
const KEPT_USER_MESSAGES = 2;

export interface CompactionLimits {
  contextWindow: number | null;
  /** Compact once the context reaches this many tokens (default: 90% of the window). */
  autoCompactTokens: number | null;
}

export function needsCompaction(limits: CompactionLimits, contextTokens: number): boolean {
  const limit =
    limits.autoCompactTokens ?? (limits.contextWindow ? Math.floor(limits.contextWindow * 0.9) : null);
  return limit !== null && contextTokens >= limit;
}

export async function compact(
  client: ModelClient,
  request: Omit<ModelRequest, 'input' | 'tools'>,
  tools: { spec: ToolSpec }[],
  conversation: ConversationEntry[],
  emit: TurnEmitter,
  signal: AbortSignal,
): Promise<ConversationEntry[]> {
  const item: ContextCompactionItem = { type: 'contextCompaction', id: randomUUID() };
  emit.itemStarted(item);
  const specs = tools.map((tool) => tool.spec);
  const { summary, usage } = await summarize(client, { ...request, tools: specs }, conversation, signal);
  // The summary cost tokens too: account/usage/read counts them with the turn's.
  if (usage) await emit.tokensUsed(request.model, request.reasoningEffort, usage);
  const replacement: ConversationEntry[] = [
    ...conversation.filter(isContextEntry),
    ...recentUserMessages(conversation),
    { kind: 'user', content: [{ type: 'text', text: SUMMARY_PREFIX + summary }] },
  ];
  await emit.compacted(replacement);
  await emit.itemCompleted(item);
  return replacement;
}

async function summarize(
  client: ModelClient,
  request: Omit<ModelRequest, 'input'>,
  conversation: ConversationEntry[],
  signal: AbortSignal,
): Promise<{ summary: string; usage: TokenUsage | null }> {
  const input: ConversationEntry[] = [
    ...conversation,
    { kind: 'user', content: [{ type: 'text', text: COMPACTION_PROMPT }] },
  ];
  const parts: string[] = [];
  let usage: TokenUsage | null = null;
  for await (const event of client.stream({ ...request, input, outputSchema: null }, signal)) {
    if (event.type === 'messageDelta') parts.push(event.delta);
    else if (event.type === 'retrying') parts.length = 0;
    else if (event.type === 'completed') usage = event.usage;
  }
  const text = parts.join('').trim();
  if (!text) throw new Error('the model returned an empty summary');
  return { summary: text, usage };
}

function recentUserMessages(conversation: ConversationEntry[]): ConversationEntry[] {
  const users = conversation.filter((entry) => entry.kind === 'user');
  return users.slice(-KEPT_USER_MESSAGES);
}
