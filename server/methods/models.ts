// model/list, modelProvider/list and modelProvider/capabilities/read: what a client's model picker offers.
import { apiKeyFor } from '../account/credentials';
import { describeModel } from '../config/modelCatalog';
import { hostedToolsByWire } from '../providers/capabilities';
import type { ModelProviderSummary } from '../protocol/modelMethods';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { ProviderConfig } from '../providers/types';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';
import { ModelDirectory } from './modelDirectory';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

export function modelHandlers(services: Services): HandlerTable {
  const directory = new ModelDirectory(services.log);

  return {
    'model/list': async (params: ParamsOf<'model/list'>): Promise<ResultOf<'model/list'>> => {
      const { defaults } = await services.loadedConfig();
      const provider = await services.provider(params.modelProvider ?? defaults.modelProvider);
      const start = params.cursor ? decodeCursor(params.cursor, provider.id) : 0;
      const ids = [...(await directory.ids(provider, await apiKeyFor(provider, services.auth)))];
      // The configured model is listed for its provider even when the endpoint leaves it out
      // (an alias, a tag), so a picker can show what new threads use.
      const defaultModel = provider.id === defaults.modelProvider ? defaults.model : null;
      if (defaultModel !== null && !ids.includes(defaultModel)) ids.unshift(defaultModel);
      const models = ids
        .map((id) => describeModel(id, provider.name, id === defaultModel))
        .filter((model) => params.includeHidden || !model.hidden);
      const limit = Math.min(Math.max(params.limit ?? DEFAULT_PAGE, 1), MAX_PAGE);
      const end = start + limit;
      return {
        data: models.slice(start, end),
        nextCursor: end < models.length ? encodeCursor(provider.id, end) : null,
      };
    },

    // For the default provider: the reference's params name none.
    'modelProvider/capabilities/read': async (): Promise<ResultOf<'modelProvider/capabilities/read'>> => {
      const { defaults } = await services.loadedConfig();
      const { webSearch, imageGeneration } =
        hostedToolsByWire[(await services.provider(defaults.modelProvider)).wireApi];
      return { imageGeneration, webSearch };
    },

    'modelProvider/list': async (): Promise<ResultOf<'modelProvider/list'>> => {
      const { defaults, providers } = await services.loadedConfig();
      return {
        data: [...providers.values()].map(providerSummary),
        defaultProviderId: defaults.modelProvider,
        // The default changes in config.toml (config/value/write of model_provider).
        canChangeDefault: false,
      };
    },
  };
}

/** A provider as a picker shows it; every one but OpenAI's is edited by modelProvider/config/write. */
export function providerSummary(provider: ProviderConfig): ModelProviderSummary {
  return {
    id: provider.id,
    name: provider.name,
    baseUrl: displayableUrl(provider.baseUrl),
    canEdit: provider.id !== 'openai',
    settings:
      provider.id === 'openai'
        ? { type: 'openai' }
        : {
            type: 'customGateway',
            auth: provider.envKey
              ? { mode: 'environmentVariable', envKey: provider.envKey }
              : { mode: 'none' },
          },
  };
}

/** A base URL with a user or password in it is not shown. */
function displayableUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.username || parsed.password ? null : url;
  } catch {
    return null;
  }
}

// Cursors are an offset into the provider's list; naming the provider keeps a cursor from one
// list from being used on another.
function encodeCursor(providerId: string, offset: number): string {
  return Buffer.from(JSON.stringify({ provider: providerId, offset }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, providerId: string): number {
  const value = parseCursor(cursor);
  const offset = value?.offset;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw invalidParams(
      `Invalid params: cursor: '${cursor.slice(0, 60)}' is not a cursor this server issued`,
    );
  }
  if (value?.provider !== providerId) {
    throw invalidParams(`Invalid params: cursor: it belongs to another provider's list than ${providerId}`);
  }
  return offset;
}

function parseCursor(cursor: string): { provider?: unknown; offset?: unknown } | null {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      provider?: unknown;
      offset?: unknown;
    } | null;
  } catch {
    return null;
  }
}
