// What the provider tests share: a provider pointed at the scripted model server, a request, and a
// way to play a stream into a list of events (and the error it ended with, if any).
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { createModelClient } from '../../../../server/providers/index';
import type {
  ConversationEntry,
  ModelEvent,
  ModelRequest,
  ProviderConfig,
  ToolSpec,
  WireApi,
} from '../../../../server/providers/types';
import type { ModelServer } from '../../../fixtures/modelServer/server';

// The client loads its wire with import(), which mocha's require hook alone cannot serve.
register('./tsImportHooks.mjs', pathToFileURL(__filename));

export const API_KEY = 'sk-test-0123456789abcdef-SECRET';

export function providerFor(
  wire: WireApi,
  server: ModelServer,
  overrides: Partial<ProviderConfig> = {},
): ProviderConfig {
  return {
    id: wire,
    name: `Test ${wire}`,
    baseUrl: server.baseUrl,
    wireApi: wire,
    envKey: null,
    httpHeaders: {},
    queryParams: {},
    requestMaxRetries: 2,
    streamMaxRetries: 2,
    streamIdleTimeoutMs: 5_000,
    requiresOpenaiAuth: false,
    maxTokens: null,
    ...overrides,
  };
}

export const WEATHER: ToolSpec = {
  kind: 'function',
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
export const APPLY_PATCH: ToolSpec = {
  kind: 'freeform',
  name: 'apply_patch',
  description: 'Applies a patch.',
  format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' },
};

export function requestWith(input: ConversationEntry[], overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'test-model',
    instructions: 'You are a test.',
    input,
    tools: [WEATHER, APPLY_PATCH],
    reasoningEffort: null,
    reasoningSummary: null,
    outputSchema: null,
    promptCacheKey: 'thread-1',
    ...overrides,
  };
}

export const hello: ConversationEntry[] = [{ kind: 'user', content: [{ type: 'text', text: 'hello' }] }];

export interface Played {
  events: ModelEvent[];
  error: (Error & Record<string, unknown>) | null;
}

/** Streams one request to the end, or to the error it throws. */
export async function play(
  provider: ProviderConfig,
  request: ModelRequest,
  signal = new AbortController().signal,
  apiKey: string | null = API_KEY,
): Promise<Played> {
  const events: ModelEvent[] = [];
  try {
    for await (const event of createModelClient(provider, apiKey).stream(request, signal)) events.push(event);
    return { events, error: null };
  } catch (error) {
    return { events, error: error as Played['error'] };
  }
}

export const ofType = <T extends ModelEvent['type']>(events: ModelEvent[], type: T) =>
  events.filter((e): e is Extract<ModelEvent, { type: T }> => e.type === type);

export const textOf = (events: ModelEvent[]) =>
  ofType(events, 'messageDelta')
    .map((e) => e.delta)
    .join('');
