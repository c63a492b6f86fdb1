// thread/worktree/read, /apply and /discard (experimental, Threadline's own): what a worktree
// thread changed against its base, bring those changes into the workspace, or remove its worktree
// and branch.
import { applyWorktree } from '../git/worktreeApply';
import { worktreeChanges } from '../git/worktreeChanges';
import {
  cleanUpUnfinished,
  discardWorktree,
  markApplied,
  requireLink,
  worktreeLoss,
  WorktreeError,
} from '../git/worktrees';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';

/** A worktree's trouble as a clear error for the client, anything else as it is. */
export function worktreeRpcError(error: unknown): unknown {
  return error instanceof WorktreeError ? invalidRequest(error.message) : error;
}

export function worktreeHandlers(services: Services): HandlerTable {
  const { home, loaded, log } = services;
  // A server killed while it made a worktree left a record of it: the half-made worktree goes now.
  setImmediate(() => {
    cleanUpUnfinished(home)
      .then((cleaned) => cleaned.forEach((path) => log.info(`removed the unfinished worktree ${path}`)))
      .catch(() => undefined);
  });

  async function readableLink(threadId: string) {
    (await services.store()).require(threadId);
    return requireLink(home, threadId).catch((error: unknown) => {
      throw worktreeRpcError(error);
    });
  }

  /** The link of a thread whose worktree may change now: no turn is running in it. */
  async function linkOf(threadId: string) {
    const link = await readableLink(threadId);
    const running = loaded.get(threadId)?.turn;
    if (running) {
      throw invalidRequest(`a turn is running on thread ${threadId} (${running.turnId}): interrupt it first`);
    }
    return link;
  }

  return {
    // Allowed while a turn runs: it only reads (the tree counts a running thread's files too).
    'thread/worktree/read': async (
      params: ParamsOf<'thread/worktree/read'>,
    ): Promise<ResultOf<'thread/worktree/read'>> => {
      const link = await readableLink(params.threadId);
      const changes = await worktreeChanges(link, params.includeDiff === true);
      return { worktreePath: link.worktreePath, branch: link.branch, baseSha: link.baseSha, ...changes };
    },

    'thread/worktree/apply': async (
      params: ParamsOf<'thread/worktree/apply'>,
    ): Promise<ResultOf<'thread/worktree/apply'>> => {
      const link = await linkOf(params.threadId);
      const result = await applyWorktree(link).catch((error: unknown) => {
        throw invalidRequest(
          `the worktree of thread ${params.threadId} could not be applied: ${(error as Error).message}`,
        );
      });
      await markApplied(home, link, result.commit);
      return result;
    },

    'thread/worktree/discard': async (
      params: ParamsOf<'thread/worktree/discard'>,
    ): Promise<ResultOf<'thread/worktree/discard'>> => {
      const link = await linkOf(params.threadId);
      const loss = await worktreeLoss(link);
      if (!params.dryRun) await discardWorktree(home, link);
      return { worktreePath: link.worktreePath, branch: link.branch, removed: !params.dryRun, ...loss };
    },
  };
}
