// thread/turn/changes/list and thread/turn/changes/revert (experimental, Threadline's own): what a
// turn changed on disk, and putting it back. A revert runs as a turn of its own whose fileChange
// item shows what was put back and whose note tells the model, so the next turn knows.
import { randomUUID } from 'node:crypto';
import {
  revertChanges,
  revertFiles,
  revertNote,
  listChanges,
  selectFiles,
  type RevertOutcome,
} from '../checkpoints/turnUndo';
import { planRevert } from '../checkpoints/revertFiles';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';
import { startTurnOn } from './turn';

export function turnChangesHandlers(services: Services): HandlerTable {
  const { checkpoints } = services;

  /** The thread, after checking the turn is in its history. */
  async function threadWithTurn(threadId: string, turnId: string) {
    const store = await services.store();
    const summary = store.require(threadId);
    const { turns } = await store.history(threadId);
    if (!turns.some((turn) => turn.id === turnId)) {
      throw invalidParams(`turn ${turnId} is not in the history of thread ${threadId}`);
    }
    return summary;
  }

  return {
    'thread/turn/changes/list': async (
      params: ParamsOf<'thread/turn/changes/list'>,
    ): Promise<ResultOf<'thread/turn/changes/list'>> => {
      const summary = await threadWithTurn(params.threadId, params.turnId);
      return listChanges(checkpoints, params.threadId, params.turnId, summary.cwd);
    },

    'thread/turn/changes/revert': async (
      params: ParamsOf<'thread/turn/changes/revert'>,
      { peer }: RequestContext,
    ): Promise<ResultOf<'thread/turn/changes/revert'>> => {
      const summary = await threadWithTurn(params.threadId, params.turnId);
      const files = selectFiles(await checkpoints.read(params.threadId, params.turnId), params.paths);
      if (typeof files === 'string') throw invalidParams(files);
      // Nothing to put back: answered without a turn.
      const preview = await planRevert(files, params.overwrite === true);
      if (preview.steps.length === 0) return { reverted: [], skipped: preview.skipped, turnId: null };
      let outcome: RevertOutcome | undefined;
      let failure: unknown;
      const turn = await startTurnOn(services, params.threadId, peer, async () => ({
        userMessage: null,
        input: { entries: [], outputSchema: null, compactOnly: false },
        body: async (active) => {
          try {
            outcome = await revertFiles(checkpoints, params.threadId, files, params.overwrite === true);
          } catch (error) {
            failure = error;
            throw error;
          }
          const { reverted, skipped } = outcome;
          if (reverted.length === 0) return;
          const writer = services.turnCheckpoint(params.threadId, active.turnId);
          await writer.record(
            reverted.map((step) => ({
              path: step.path,
              target: step.target,
              before: step.current,
              after: step.restore,
            })),
            [],
          );
          const item = {
            type: 'fileChange' as const,
            id: randomUUID(),
            changes: await revertChanges(checkpoints.blobs(params.threadId), reverted),
            status: 'completed' as const,
          };
          active.emit.itemStarted(item);
          await active.emit.itemCompleted(item);
          const text = revertNote(params.turnId, reverted, skipped, summary.cwd);
          await active.emit.modelEntries([{ kind: 'user', content: [{ type: 'text', text }] }]);
        },
      }));
      await services.loaded.get(params.threadId)?.turn?.done;
      if (!outcome) throw failure ?? new Error('the revert did not run');
      return {
        reverted: outcome.reverted.map((step) => step.path),
        skipped: outcome.skipped,
        turnId: outcome.reverted.length ? turn.id : null,
      };
    },
  };
}
