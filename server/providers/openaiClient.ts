// The official OpenAI client as both OpenAI-compatible wires (Responses, Chat Completions) use it:
// no retries of its own (retry.ts decides), no timeout of its own (the idle timeout and the
// caller's abort decide), and the provider's extra headers and query parameters on every call.
import OpenAI from 'openai';
import type { ProviderConfig } from './types';
import { NO_TIMEOUT_MS } from './wire';

export function openaiClient(provider: ProviderConfig, apiKey: string | null): OpenAI {
  return new OpenAI({
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
}

export async function listOpenAiModels(client: OpenAI, signal: AbortSignal): Promise<string[]> {
  const ids: string[] = [];
  for await (const model of client.models.list({ signal })) ids.push(model.id);
  return ids;
}
