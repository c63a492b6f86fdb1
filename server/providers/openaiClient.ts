// How both OpenAI-compatible wires (Responses, Chat Completions) reach their provider: streamed
// requests over our own HTTP (httpStream.ts says why), the model list through the official client,
// loaded only when a list is asked for. The client gets no retries of its own (retry.ts decides),
// no timeout of its own, and the provider's extra headers and query parameters on every call.
import { endpoint, postForStream } from './httpStream';
import type { ProviderConfig } from './types';
import { NO_TIMEOUT_MS } from './wire';

/** Streams a POST to one of the OpenAI-compatible endpoints, authenticated as the client would be. */
export function openaiStream(provider: ProviderConfig, apiKey: string | null, path: string) {
  const url = endpoint(provider.baseUrl, path, provider.queryParams);
  const headers = { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...provider.httpHeaders };
  return (body: unknown, signal: AbortSignal) => postForStream({ url, headers, body, signal });
}

export async function listOpenAiModels(
  provider: ProviderConfig,
  apiKey: string | null,
  signal: AbortSignal,
): Promise<string[]> {
  const { OpenAI } = await import('./sdks');
  const client = new OpenAI({
    // Local servers (Ollama, LM Studio) need no key, but the client insists on one.
    apiKey: apiKey ?? 'none',
    baseURL: provider.baseUrl,
    maxRetries: 0,
    timeout: NO_TIMEOUT_MS,
    defaultHeaders: provider.httpHeaders,
    defaultQuery: provider.queryParams,
    // Never pick up OPENAI_ORG_ID, OPENAI_PROJECT_ID or OPENAI_ADMIN_KEY for another provider.
    organization: null,
    project: null,
    adminAPIKey: null,
  });
  const ids: string[] = [];
  for await (const model of client.models.list({ signal })) ids.push(model.id);
  return ids;
}
