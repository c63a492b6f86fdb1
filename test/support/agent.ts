// Helpers for turn tests: a home whose config points a provider at the scripted model server, and
// shortcuts for starting a turn and waiting for it to end.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ThreadItem } from '../../server/protocol/items';
import type { Turn } from '../../server/protocol/thread';
import type { WireFormat } from '../fixtures/modelServer/scenario';
import type { MessageLog } from './messageLog';
import { tempDir } from './serverProcess';

export const TEST_KEY = 'sk-test-0123456789-secret';

export interface ProviderOptions {
  requestMaxRetries?: number;
  streamMaxRetries?: number;
  streamIdleTimeoutMs?: number;
  extraTopLevel?: string;
}

/**
 * config.toml text (ours or codex's) that sends every turn to the scripted model server, its key in
 * SCRIPTED_API_KEY (agentEnv); retry settings only where given.
 */
export function scriptedConfig(
  baseUrl: string,
  options: ProviderOptions & { wire?: WireFormat } = {},
): string {
  const optional = (key: string, value: number | undefined) =>
    value === undefined ? [] : [`${key} = ${value}`];
  return [
    'model = "test-model"',
    'model_provider = "scripted"',
    options.extraTopLevel ?? '',
    '',
    '[model_providers.scripted]',
    'name = "Scripted"',
    `base_url = "${baseUrl}"`,
    `wire_api = "${options.wire ?? 'responses'}"`,
    'env_key = "SCRIPTED_API_KEY"',
    ...optional('request_max_retries', options.requestMaxRetries),
    ...optional('stream_max_retries', options.streamMaxRetries),
    ...optional('stream_idle_timeout_ms', options.streamIdleTimeoutMs),
    '',
  ].join('\n');
}

/** A fresh home whose config.toml uses the scripted server in one wire format. */
export function agentHome(wire: WireFormat, baseUrl: string, options: ProviderOptions = {}): string {
  const home = tempDir('threadline-agent-');
  const config = scriptedConfig(baseUrl, {
    wire,
    extraTopLevel: options.extraTopLevel,
    requestMaxRetries: options.requestMaxRetries ?? 1,
    streamMaxRetries: options.streamMaxRetries ?? 1,
    streamIdleTimeoutMs: options.streamIdleTimeoutMs ?? 2000,
  });
  writeFileSync(join(home, 'config.toml'), config);
  return home;
}

export const agentEnv = { SCRIPTED_API_KEY: TEST_KEY };

/** The system prompt a request to the scripted model carried. */
export const instructionsOf = (request: { body: { instructions?: string } }) =>
  request.body.instructions ?? '';

/**
 * The context messages (<threadline_context>, then its updates) a request carried, oldest first,
 * on any wire: Responses developer items, Chat user messages, Anthropic user text blocks.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function contextMessagesOf(request: { body: any }): string[] {
  const messages: { content: unknown }[] = request.body.input ?? request.body.messages ?? [];
  const texts = messages.flatMap(({ content }) =>
    typeof content === 'string'
      ? [content]
      : Array.isArray(content)
        ? content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : ''))
        : [],
  );
  return texts.filter((t) => t.startsWith('<threadline_context'));
}

/** The newest context message of a request: what the model was last told of where it works. */
export const newestContextOf = (request: { body: unknown }) =>
  contextMessagesOf(request as { body: never }).at(-1) ?? '';

export const text = (value: string) => ({ type: 'text', text: value });

export async function startThread(server: MessageLog, cwd?: string): Promise<string> {
  const { thread } = await server.call<{ thread: { id: string } }>('thread/start', cwd ? { cwd } : {});
  return thread.id;
}

export async function startTurn(
  server: MessageLog,
  threadId: string,
  input: unknown[] | string,
  extra: Record<string, unknown> = {},
): Promise<Turn> {
  const items = typeof input === 'string' ? [text(input)] : input;
  const { turn } = await server.call<{ turn: Turn }>('turn/start', { threadId, input: items, ...extra });
  return turn;
}

/** Waits for the turn's turn/completed and returns the turn it carries. */
export async function turnCompleted(server: MessageLog, turnId: string, timeoutMs = 10_000): Promise<Turn> {
  const message = await server.next(
    (m) => m.method === 'turn/completed' && (m.params as { turn: Turn }).turn.id === turnId,
    timeoutMs,
  );
  return (message.params as { turn: Turn }).turn;
}

/** Starts a turn and waits for it to end. */
export async function runTurn(server: MessageLog, threadId: string, input: unknown[] | string) {
  const turn = await startTurn(server, threadId, input);
  return turnCompleted(server, turn.id);
}

/** The items the turn completed, in order. */
export function completedItems(server: MessageLog, turnId: string): ThreadItem[] {
  return server
    .notifications('item/completed')
    .map((m) => m.params as { turnId: string; item: ThreadItem })
    .filter((p) => p.turnId === turnId)
    .map((p) => p.item);
}

/** The methods of the notifications about one turn, in order (deltas included). */
export function turnEvents(server: MessageLog, turnId: string): string[] {
  return server.received
    .filter((m) => m.method && m.id === undefined)
    .filter((m) => {
      const params = m.params as { turnId?: string; turn?: { id: string } };
      return params?.turnId === turnId || params?.turn?.id === turnId;
    })
    .map((m) => m.method as string);
}
