// thread/delete: removes a thread for good, with everything kept for it (its rollout, its index
// entry, the checkpoints of its turns, its saved settings, its attachments; its running commands stop as
// it unloads). A running turn must be stopped first. A worktree thread's worktree goes with it when it
// holds no work; otherwise the delete is refused until it is applied or discarded
// (server/git/worktreeLifecycle.ts).
import { deleteWorktreeOf, worktreeToDelete } from '../git/worktreeLifecycle';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { forgetThreadSettings } from './savedThreadSettings';
import { worktreeRpcError } from './worktree';

export function threadDeleteHandlers(services: Services): HandlerTable {
  return {
    'thread/delete': async (params, { peer }) => {
      const { threadId } = params;
      const store = await services.store();
      store.require(threadId);
      const running = services.loaded.get(threadId)?.turn;
      if (running) {
        throw invalidRequest(
          `a turn is running on thread ${threadId} (${running.turnId}): interrupt it first`,
        );
      }
      const worktree = await worktreeToDelete(services.home, threadId).catch((error: unknown) => {
        throw worktreeRpcError(error);
      });
      await store.delete(threadId);
      if (worktree) await deleteWorktreeOf(services.home, worktree);
      await services.checkpoints.removeThread(threadId);
      await forgetThreadSettings(services.home, threadId);
      services.search.threadRemoved(threadId);
      await services.sections.forget(threadId);
      await services.attachments.forget(threadId);
      // After the response, as the other lifecycle notifications; then it stops being loaded.
      setImmediate(() => {
        services.loaded.notifyWith(peer, threadId, 'thread/deleted', { threadId });
        services.loaded.unload(threadId);
      });
      return {};
    },
  };
}
