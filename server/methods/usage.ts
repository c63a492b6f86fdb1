// account/usage/read: token usage from the rollouts (server/usage), every thread's or one's, with
// Threadline's breakdown and cost estimate for clients that ask. The usage index lives as long as
// the method family, so later calls read only the rollouts that changed.
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable } from '../rpc/dispatcher';
import type { Services } from '../services';
import { pricesFrom } from '../usage/prices';
import { localDay } from '../usage/rolloutUsage';
import { UsageIndex } from '../usage/usageIndex';
import { usageReport } from '../usage/usageReport';

const DEFAULT_THREAD_LIMIT = 50;

export function usageHandlers(services: Services): HandlerTable {
  const index = new UsageIndex(services.home, services.log);
  return {
    'account/usage/read': async (
      params: ParamsOf<'account/usage/read'>,
    ): Promise<ResultOf<'account/usage/read'>> => {
      const store = await services.store();
      const threadId = params.threadId ?? null;
      // An unknown thread is an error, not a thread that used nothing.
      if (threadId !== null) store.require(threadId);
      const all = await index.all();
      const files = threadId === null ? all : all.filter((file) => file.threadId === threadId);
      const { config } = await services.configuration.read(null);
      return usageReport(files, pricesFrom(config, services.log), {
        today: localDay(Date.now()),
        threadId,
        breakdown: params.breakdown === true,
        threadLimit: params.threadLimit ?? DEFAULT_THREAD_LIMIT,
        titleOf: (id) => {
          const thread = store.get(id);
          return thread?.name || thread?.preview || id;
        },
      });
    },
  };
}
