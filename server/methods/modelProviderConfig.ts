// modelProvider/config/write: a provider's name, base URL and key variable written into the user's
// config.toml through the same comment-keeping writer as config/value/write; the provider as it
// reads back is the answer. Keys never go there (config/modelProviderConfig.ts refuses them).
import { providerEdits, ProviderNotEditable } from '../config/modelProviderConfig';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { answer } from './config';
import { providerSummary } from './models';

export function modelProviderConfigHandlers(services: Services): HandlerTable {
  return {
    'modelProvider/config/write': async (params) => {
      const { providers } = await services.loadedConfig();
      let planned: ReturnType<typeof providerEdits>;
      try {
        planned = await answer(async () => providerEdits(params.settings, providers));
      } catch (error) {
        if (error instanceof ProviderNotEditable) throw invalidRequest(error.message);
        throw error;
      }
      if (planned.edits.length) await answer(() => services.configuration.write(planned.edits, null, null));
      const written = (await services.loadedConfig()).providers.get(planned.providerId);
      // A -c flag or a broken entry can hide what was written; the client is told, not shown a guess.
      if (!written) {
        throw invalidRequest(
          `model provider ${planned.providerId} was written to config.toml but does not load: see the server log`,
        );
      }
      return { provider: providerSummary(written) };
    },
  };
}
