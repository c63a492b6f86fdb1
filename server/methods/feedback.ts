// feedback/upload, kept as a local bundle (see feedback/feedbackBundle.ts); feedback/save, the same
// bundle as a ZIP where the client asks; windowsSandbox/setupStart, which answers as the spec says
// and then reports why nothing was set up; and windowsSandbox/readiness, which never says ready.
import { environmentSecrets, scrubber } from '../feedback/scrub';
import {
  FeedbackFileError,
  saveFeedbackZip,
  writeFeedbackBundle,
  type FeedbackReport,
} from '../feedback/feedbackBundle';
import type { ParamsOf } from '../protocol/methods';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';

const NO_WINDOWS_SANDBOX =
  process.platform === 'win32'
    ? 'Threadline has no Windows sandbox yet: on Windows, commands are not confined, so keep approvals on (untrusted or on-request).'
    : `There is no Windows sandbox to set up on ${process.platform}: commands here are confined by ${
        process.platform === 'darwin' ? 'Seatbelt (sandbox-exec)' : 'bubblewrap'
      }.`;

export function feedbackHandlers(services: Services): HandlerTable {
  /** The report a feedback request describes, and the scrubber for every secret the server knows. */
  const reportOf = async (
    params: ParamsOf<'feedback/upload'>,
  ): Promise<[FeedbackReport, (text: string) => string]> => {
    const store = await services.store();
    const threadId = params.threadId ?? null;
    if (threadId) store.require(threadId);
    const scrub = scrubber([...(await services.auth.secrets()), ...environmentSecrets()]);
    const report = {
      classification: params.classification,
      reason: params.reason ?? null,
      tags: params.tags ?? {},
      threadId,
      rollout: threadId ? await store.recordLines(threadId) : null,
      log: params.includeLogs === false ? null : services.recentLog.text(),
      extraLogFiles: params.extraLogFiles ?? [],
    };
    return [report, scrub];
  };

  return {
    'feedback/upload': async (params) => {
      const id = await answer(async () => writeFeedbackBundle(services.home, ...(await reportOf(params))));
      services.log.info(`feedback ${id} saved under ${services.home}/feedback/${id}`);
      return { threadId: id, promptHash: null };
    },

    'feedback/save': async (params) => {
      const id = await answer(async () => saveFeedbackZip(params.savePath, ...(await reportOf(params))));
      services.log.info(`feedback ${id} saved as ${params.savePath}`);
      return { savedPath: params.savePath, threadId: id, promptHash: null };
    },

    'windowsSandbox/setupStart': (params, { peer }) => {
      setImmediate(() =>
        peer.notify('windowsSandbox/setupCompleted', {
          mode: params.mode,
          success: false,
          error: NO_WINDOWS_SANDBOX,
        }),
      );
      return { started: true };
    },

    // Never "ready": there is no Windows sandbox here to be ready (setupStart says why).
    'windowsSandbox/readiness': () => ({ status: 'notConfigured' as const }),
  };
}

/** A file the report names that cannot be taken is the client's mistake: -32602 naming it. */
async function answer<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof FeedbackFileError) throw invalidParams(`Invalid params: ${error.message}`);
    throw error;
  }
}
