// The model client for a provider: its wire format's module, loaded on first use so the server
// starts without parsing any SDK, wrapped in our retry policy and error classifier.
import { classify, secretsOf, WireError, type FailureContext } from './errors';
import { abortError, withRetries } from './retry';
import type { ModelClientFactory, WireApi } from './types';
import type { Wire, WireFactory } from './wire';

const loaders: Record<WireApi, () => Promise<WireFactory>> = {
  responses: async () => (await import('./responses')).responsesWire,
  chat: async () => (await import('./chat')).chatWire,
  anthropic: async () => (await import('./anthropic')).anthropicWire,
};

/** The path each wire posts to, for error messages that name the URL. */
const ENDPOINTS: Record<WireApi, string> = {
  responses: '/responses',
  chat: '/chat/completions',
  anthropic: '/messages',
};

export const createModelClient: ModelClientFactory = (provider, apiKey) => {
  let wire: Promise<Wire> | undefined;
  // A module that fails to load is our bug, not the network's: never retried.
  const load = () =>
    (wire ??= loaders[provider.wireApi]().then(
      (factory) => factory(provider, apiKey),
      (error: Error) => {
        wire = undefined;
        throw new WireError('other', `cannot load the ${provider.wireApi} client: ${error.message}`, false);
      },
    ));
  const base = provider.baseUrl.replace(/\/+$/, '');
  const context = (path: string, model: string | null): FailureContext => ({
    provider: provider.name,
    url: base + path,
    model,
    secrets: secretsOf(apiKey, provider.httpHeaders),
  });
  return {
    // Not a generator itself: each layer of async generators costs a little on every event.
    stream(request, signal) {
      const ctx = context(ENDPOINTS[provider.wireApi], request.model);
      return withRetries(
        provider,
        ctx,
        async (s, progress) => (await load()).stream(request, s, progress),
        signal,
      );
    },
    async listModels(signal) {
      try {
        return await (await load()).listModels(signal);
      } catch (error) {
        if (signal.aborted) throw abortError(signal);
        throw classify(context('/models', null), error, false);
      }
    },
  };
};
