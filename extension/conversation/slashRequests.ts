// The webview's requests behind the `/` commands that call the server: the prompt files, review,
// compact, the goal, the rate limits and today's usage. (`/new`, `/model` and `/undo` are the editor's own commands and
// messages; `/plan` is the composer's mode.)
import type { HostRequests } from '../../webview/messages';
import type { ThreadlineServer } from '../server/threadlineServer';
import { listPromptFiles } from './promptFiles';

type Handler<N extends keyof HostRequests> = (
  params: HostRequests[N]['params'],
) => Promise<HostRequests[N]['result']>;

export function slashRequests(
  server: ThreadlineServer,
  cwd: () => string,
): {
  listPrompts: Handler<'listPrompts'>;
  startReview: Handler<'startReview'>;
  compactThread: Handler<'compactThread'>;
  setGoal: Handler<'setGoal'>;
  readRateLimits: Handler<'readRateLimits'>;
  readUsageToday: Handler<'readUsageToday'>;
} {
  return {
    listPrompts: async () => ({ prompts: await listPromptFiles(cwd()) }),
    startReview: async ({ threadId, instructions }) => {
      const { turn } = await server.request('review/start', {
        threadId,
        target: instructions ? { type: 'custom', instructions } : { type: 'uncommittedChanges' },
        delivery: 'inline',
      });
      return { turnId: turn.id };
    },
    compactThread: async ({ threadId }) => {
      await server.request('thread/compact/start', { threadId });
      return {};
    },
    setGoal: async ({ threadId, objective }) => {
      // The header follows thread/goal/updated and thread/goal/cleared.
      if (objective.trim()) await server.request('thread/goal/set', { threadId, objective, origin: 'user' });
      else await server.request('thread/goal/clear', { threadId, origin: 'user' });
      return {};
    },
    readRateLimits: async () => {
      // A provider that reports none (most API keys until a response carries the headers) is not an error.
      const read = await server.request('account/rateLimits/read', {}).catch(() => null);
      return { rateLimits: read?.rateLimits ?? null };
    },
    readUsageToday: async () => {
      // Another app-server (codex) may not serve Threadline's breakdown: then today is unknown.
      const read = await server.request('account/usage/read', { breakdown: true }).catch(() => null);
      if (!read?.breakdown) return { today: null };
      const today = read.breakdown.days.find((day) => day.date === read.breakdown?.today);
      return {
        today: {
          totalTokens: today?.tokens.totalTokens ?? 0,
          estimatedUsdMicros: today ? today.estimatedUsdMicros : 0,
          unpricedTokens: today?.unpricedTokens ?? 0,
        },
      };
    },
  };
}
