// The model client for a provider: its wire format's module, loaded on first use so the server
// starts without parsing any SDK, wrapped in our retry policy.
import { withRetries } from './retry';
import type { ModelClientFactory, WireApi } from './types';
import type { Wire, WireFactory } from './wire';

const loaders: Record<WireApi, () => Promise<WireFactory>> = {
  responses: async () => (await import('./responses')).responsesWire,
  chat: async () => (await import('./chat')).chatWire,
  anthropic: async () => (await import('./anthropic')).anthropicWire,
};

export const createModelClient: ModelClientFactory = (provider, apiKey) => {
  let wire: Promise<Wire> | undefined;
  const load = () => (wire ??= loaders[provider.wireApi]().then((factory) => factory(provider, apiKey)));
  return {
    async *stream(request, signal) {
      const loaded = await load();
      yield* withRetries(
        provider,
        (attemptSignal, opened) => loaded.stream(request, attemptSignal, opened),
        signal,
      );
    },
    async listModels(signal) {
      return (await load()).listModels(signal);
    },
  };
};
