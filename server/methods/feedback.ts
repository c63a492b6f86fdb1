// feedback/upload, kept as a local bundle (see feedback/feedbackBundle.ts), and
// windowsSandbox/setupStart, which answers as the spec says and then reports why nothing was set up,
// and windowsSandbox/readiness, which says there is no Windows sandbox configured.
import { environmentSecrets, scrubber } from '../feedback/scrub';
import { FeedbackFileError, writeFeedbackBundle } from '../feedback/feedbackBundle';
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
  return {
    'feedback/upload': async (params) => {
      const store = await services.store();
      const threadId = params.threadId ?? null;
      if (threadId) store.require(threadId);
      const scrub = scrubber([...(await services.auth.secrets()), ...environmentSecrets()]);
      try {
        const id = await writeFeedbackBundle(
          services.home,
          {
            classification: params.classification,
            reason: params.reason ?? null,
            tags: params.tags ?? {},
            threadId,
            rollout: threadId ? await store.recordLines(threadId) : null,
            log: params.includeLogs === false ? null : services.recentLog.text(),
            extraLogFiles: params.extraLogFiles ?? [],
          },
          scrub,
        );
        services.log.info(`feedback ${id} saved under ${services.home}/feedback/${id}`);
        return { threadId: id, promptHash: null };
      } catch (error) {
        if (error instanceof FeedbackFileError) throw invalidParams(`Invalid params: ${error.message}`);
        throw error;
      }
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
