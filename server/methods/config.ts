// config/read, config/value/write, config/batchWrite, configRequirements/read,
// experimentalFeature/list, experimentalFeature/enablement/set and collaborationMode/list.
import { COLLABORATION_MODES } from '../config/collaborationModes';
import { ConfigVersionConflict, InvalidConfigEdit } from '../config/configWriter';
import { describeFeatures, PinnedFeature } from '../config/features';
import { BrokenConfigFile } from '../config/tomlFile';
import type { Config } from '../protocol/configMethods';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { announcingApps } from './apps';
import { readableConfig } from './configView';

const DEFAULT_PAGE = 50;

export function configHandlers(services: Services): HandlerTable {
  const configuration = services.configuration;
  return {
    'config/read': (params) =>
      answer(async (): Promise<ResultOf<'config/read'>> => {
        const { config, origins, layers } = await configuration.read(params.cwd ?? null);
        return {
          config: readableConfig(config, origins, services.log) as Config,
          origins,
          ...(params.includeLayers
            ? {
                layers: layers.reverse().map((layer) => ({
                  name: layer.source,
                  version: layer.version,
                  config: layer.table,
                  disabledReason: layer.disabledReason,
                })),
              }
            : {}),
        };
      }),

    'config/value/write': (params, { peer }) =>
      announcingApps(services, peer, () =>
        answer(() =>
          configuration.write(
            [{ keyPath: params.keyPath, value: params.value, mergeStrategy: params.mergeStrategy }],
            params.filePath,
            params.expectedVersion,
          ),
        ),
      ),

    'config/batchWrite': (params, { peer }) =>
      announcingApps(services, peer, () =>
        answer(() => configuration.write(params.edits, params.filePath, params.expectedVersion)),
      ),

    'configRequirements/read': async () => ({ requirements: await configuration.requirements() }),

    'experimentalFeature/list': async (
      params: ParamsOf<'experimentalFeature/list'>,
    ): Promise<ResultOf<'experimentalFeature/list'>> => {
      const cwd = params.threadId ? services.loaded.get(params.threadId)?.settings?.cwd : null;
      const features = describeFeatures(await answer(() => configuration.features(cwd ?? null)));
      const start = params.cursor ? Number(params.cursor) : 0;
      if (!Number.isInteger(start) || start < 0 || start > features.length)
        throw invalidParams(`cursor: "${params.cursor}" is not one this server gave`);
      const end = start + Math.max(params.limit || DEFAULT_PAGE, 1);
      return { data: features.slice(start, end), nextCursor: end < features.length ? String(end) : null };
    },

    'experimentalFeature/enablement/set': async (params) => ({
      enablement: await answer(() => configuration.setFeatureEnablement(params.enablement)),
    }),

    'collaborationMode/list': () => ({ data: [...COLLABORATION_MODES] }),
  };
}

/** Config errors as a client sees them: a bad edit names its key (-32602), a broken file says so. */
export async function answer<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof InvalidConfigEdit) throw invalidParams(error.message);
    if (
      error instanceof BrokenConfigFile ||
      error instanceof ConfigVersionConflict ||
      error instanceof PinnedFeature
    )
      throw invalidRequest(error.message);
    throw error;
  }
}
