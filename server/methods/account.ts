// account/read, account/login/start (API keys), account/login/cancel and account/logout, for the
// default provider (account/read also for a named one, so a client can check before a turn).
import { apiKeyFor, needsApiKey } from '../account/credentials';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';

export function accountHandlers(services: Services): HandlerTable {
  const defaultProvider = async () => services.provider((await services.config()).modelProvider);
  const announce = (peer: RequestContext['peer'], authMode: 'apikey' | null, login: boolean) =>
    setImmediate(() => {
      if (login) peer.notify('account/login/completed', { loginId: null, success: true, error: null });
      peer.notify('account/updated', { authMode });
    });

  return {
    'account/read': async (params: ParamsOf<'account/read'>): Promise<ResultOf<'account/read'>> => {
      const provider = params?.modelProvider
        ? await services.provider(params.modelProvider)
        : await defaultProvider();
      const key = await apiKeyFor(provider, services.auth);
      return { account: key ? { type: 'apiKey' } : null, requiresOpenaiAuth: needsApiKey(provider) };
    },

    'account/rateLimits/read': async () => {
      const provider = await defaultProvider();
      return {
        rateLimits: services.rateLimits.of(provider.id, provider.name),
        rateLimitsByLimitId: services.rateLimits.all(),
      };
    },

    'account/login/start': async (params: ParamsOf<'account/login/start'>, { peer }: RequestContext) => {
      if (params.type !== 'apiKey') {
        throw invalidRequest(
          `${params.type} sign-in is not offered by Threadline; sign in with an API key (type "apiKey") or set the provider's env_key variable`,
        );
      }
      const apiKey = params.apiKey?.trim();
      if (!apiKey) throw invalidParams('Invalid params: apiKey: expected a non-empty API key');
      const provider = await defaultProvider();
      await services.auth.setApiKey(provider.id, apiKey);
      services.log.info(`stored an API key for ${provider.id}`);
      announce(peer, 'apikey', true);
      return { type: 'apiKey' as const };
    },

    // No browser sign-in is ever pending here.
    'account/login/cancel': (): ResultOf<'account/login/cancel'> => ({ status: 'notFound' }),

    'account/logout': async (_params: unknown, { peer }: RequestContext) => {
      const provider = await defaultProvider();
      await services.auth.setApiKey(provider.id, null);
      if (provider.envKey && process.env[provider.envKey]) {
        services.log.info(`${provider.envKey} is still set, so ${provider.id} keeps using that key`);
      }
      announce(peer, null, false);
      return {};
    },
  };
}
