// review/start: a review turn on the thread (inline), or on a fork of it announced with
// thread/started (detached). What is reviewed is read before the turn starts, so an unusable
// target (no repository, an unknown branch) is the request's error.
import { randomUUID } from 'node:crypto';
import { REVIEW_INSTRUCTIONS, ReviewTargetError, reviewRequest } from '../agent/reviewRequest';
import { reviewRunner } from '../agent/reviewTurn';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';
import type { ThreadSessions } from './threadSessions';
import { settingsFor } from './threadSettings';
import { startTurnOn } from './turn';

export function reviewHandlers(services: Services, sessions: ThreadSessions): HandlerTable {
  return {
    'review/start': async (params, { peer }) => {
      const store = await services.store();
      const settings = await settingsFor(services, store.require(params.threadId));
      let request;
      try {
        request = await reviewRequest(params.target, settings.cwd);
      } catch (error) {
        if (error instanceof ReviewTargetError)
          throw invalidParams(`Invalid params: target: ${error.message}`);
        throw error;
      }
      const reviewThreadId =
        params.delivery === 'detached'
          ? (await sessions.fork({ threadId: params.threadId }, peer)).thread.id
          : params.threadId;
      const turn = await startTurnOn(services, reviewThreadId, peer, async () => ({
        userMessage: {
          type: 'userMessage',
          id: randomUUID(),
          content: [{ type: 'text', text: request.userText, text_elements: [] }],
        },
        input: {
          entries: [{ kind: 'user', content: [{ type: 'text', text: request.prompt }] }],
          outputSchema: null,
          compactOnly: false,
          reviewInstructions: REVIEW_INSTRUCTIONS,
        },
        run: reviewRunner(request.label),
      }));
      return { turn, reviewThreadId };
    },
  };
}
