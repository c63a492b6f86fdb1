// The thread lifecycle methods: start, resume, fork, read, list, rename, archive, unarchive,
// unsubscribe, rollback and revert, and paging through a thread's turns.
import { resolve } from 'node:path';
import { applyOverrides, effectiveSandboxPolicy, type ThreadSettings } from '../config/settings';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { SessionSource, Turn } from '../protocol/thread';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import type { Peer } from '../rpc/clientConnection';
import type { Services } from '../services';
import { readGitInfo } from '../threads/gitInfo';
import type { ThreadSummary } from '../threads/summary';
import type { NewThread } from '../threads/threadStore';
import { withStoreErrors } from './storeErrors';
import { settingsFor } from './threadSettings';
import { settleOrphanedTurns, toThread } from './threadView';
import { encodeTurnCursor, turnsListHandler } from './turnsList';

const OUR_CLIENTS = new Set(['threadline_vscode', 'codex_vscode']);
const DEFAULT_PAGE = 25;
const MAX_PAGE = 200;

function sourceOf(peer: Peer): SessionSource {
  return OUR_CLIENTS.has(peer.clientInfo?.name ?? '') ? 'vscode' : 'appServer';
}

export function threadHandlers(services: Services): HandlerTable {
  const { loaded, home } = services;
  const view = (summary: ThreadSummary, turns: Turn[] = []) =>
    toThread(home, summary, loaded.statusOf(summary.id), turns, summary.path === '');
  // Lifecycle notifications go out after the response that caused them.
  const announce = (peer: Peer, threadId: string, method: string, params: unknown) =>
    setImmediate(() => loaded.notifyWith(peer, threadId, method, params));

  async function session(summary: ThreadSummary, settings: ThreadSettings, turns: Turn[]) {
    services.settings.set(summary.id, settings);
    return {
      thread: view(summary, turns),
      model: settings.model,
      modelProvider: settings.modelProvider,
      cwd: settings.cwd,
      approvalPolicy: settings.approvalPolicy,
      approvalsReviewer: 'user' as const,
      sandbox: effectiveSandboxPolicy(settings),
      reasoningEffort: settings.reasoningEffort,
    };
  }

  async function newThread(settings: ThreadSettings, peer: Peer, ephemeral: boolean): Promise<NewThread> {
    return {
      cwd: settings.cwd,
      modelProvider: settings.modelProvider,
      model: settings.model,
      source: sourceOf(peer),
      cliVersion: __THREADLINE_VERSION__,
      forkedFromId: null,
      gitInfo: await readGitInfo(settings.cwd),
      ephemeral,
    };
  }

  async function newSettings(params: ParamsOf<'thread/start'>): Promise<ThreadSettings> {
    const defaults = await services.config();
    const cwd = resolve(params.cwd ?? process.cwd());
    return applyOverrides({ ...defaults, cwd }, { ...params, cwd });
  }

  const handlers: HandlerTable = {
    'thread/start': async (params: ParamsOf<'thread/start'>, { peer }: RequestContext) => {
      const settings = await newSettings(params);
      const store = await services.store();
      const summary = await store.create(await newThread(settings, peer, params.ephemeral === true));
      loaded.subscribe(summary.id, peer);
      const result = await session(summary, settings, []);
      announce(peer, summary.id, 'thread/started', { thread: result.thread });
      return result;
    },

    'thread/resume': async (params: ParamsOf<'thread/resume'>, { peer }: RequestContext) => {
      const store = await services.store();
      const summary = store.require(params.threadId);
      const running = loaded.statusOf(summary.id).type === 'active';
      const history = await store.history(summary.id);
      const settings = await settingsFor(services, summary, params);
      loaded.subscribe(summary.id, peer);
      const turns = params.excludeTurns ? [] : settleOrphanedTurns(history.turns, running);
      const newest = history.turns[history.turns.length - 1];
      return {
        ...(await session(summary, settings, turns)),
        turnsBackwardsCursor: newest ? encodeTurnCursor(newest.id, true) : null,
      };
    },

    'thread/fork': async (params: ParamsOf<'thread/fork'>, { peer }: RequestContext) => {
      const store = await services.store();
      const source = store.require(params.threadId);
      const settings = await settingsFor(services, source, params);
      const thread = await newThread(settings, peer, params.ephemeral === true);
      const summary = await store.fork(source.id, thread, params.lastTurnId ?? undefined);
      loaded.subscribe(summary.id, peer);
      const turns = params.excludeTurns
        ? []
        : settleOrphanedTurns((await store.history(summary.id)).turns, false);
      const result = await session(summary, settings, turns);
      announce(peer, summary.id, 'thread/started', { thread: { ...result.thread, turns: [] } });
      return result;
    },

    'thread/read': async (params: ParamsOf<'thread/read'>): Promise<ResultOf<'thread/read'>> => {
      const store = await services.store();
      const summary = store.require(params.threadId);
      if (!params.includeTurns) return { thread: view(summary) };
      const running = loaded.statusOf(summary.id).type === 'active';
      return { thread: view(summary, settleOrphanedTurns((await store.history(summary.id)).turns, running)) };
    },

    'thread/list': async (params: ParamsOf<'thread/list'>): Promise<ResultOf<'thread/list'>> => {
      const store = await services.store();
      const page = store.list({
        cursor: params.cursor ?? undefined,
        limit: Math.min(params.limit || DEFAULT_PAGE, MAX_PAGE),
        sortKey: params.sortKey ?? 'created_at',
        sortDirection: params.sortDirection ?? 'desc',
        modelProviders: params.modelProviders ?? undefined,
        // As the spec says: no source filter means the interactive sources only.
        sourceKinds: params.sourceKinds?.length ? params.sourceKinds : ['cli', 'vscode'],
        archived: params.archived === true,
        cwd:
          params.cwd == null
            ? undefined
            : (Array.isArray(params.cwd) ? params.cwd : [params.cwd]).map((c) => resolve(c)),
        searchTerm: params.searchTerm ?? undefined,
      });
      return { data: page.data.map((summary) => view(summary)), nextCursor: page.nextCursor };
    },

    'thread/loaded/list': (params: ParamsOf<'thread/loaded/list'>): ResultOf<'thread/loaded/list'> => {
      const ids = loaded.ids().sort();
      const start = params.cursor ? ids.findIndex((id) => id > params.cursor!) : 0;
      const from = start < 0 ? ids.length : start;
      const limit = params.limit || ids.length || 1;
      const data = ids.slice(from, from + limit);
      const more = from + limit < ids.length;
      return { data, nextCursor: more ? data[data.length - 1]! : null };
    },

    'thread/name/set': async (params: ParamsOf<'thread/name/set'>, { peer }: RequestContext) => {
      const store = await services.store();
      const name = params.name.trim() || null;
      await store.setName(params.threadId, name);
      announce(peer, params.threadId, 'thread/name/updated', { threadId: params.threadId, threadName: name });
      return {};
    },

    'thread/archive': async (params: ParamsOf<'thread/archive'>, { peer }: RequestContext) => {
      const store = await services.store();
      await store.archive(params.threadId);
      announce(peer, params.threadId, 'thread/archived', { threadId: params.threadId });
      setImmediate(() => loaded.unload(params.threadId));
      return {};
    },

    'thread/unarchive': async (params: ParamsOf<'thread/unarchive'>, { peer }: RequestContext) => {
      const store = await services.store();
      const summary = await store.unarchive(params.threadId);
      announce(peer, params.threadId, 'thread/unarchived', { threadId: params.threadId });
      return { thread: view(summary) };
    },

    'thread/unsubscribe': async (params: ParamsOf<'thread/unsubscribe'>, { peer }: RequestContext) => {
      (await services.store()).require(params.threadId);
      return { status: loaded.unsubscribe(params.threadId, peer) };
    },

    'thread/rollback': async (params: ParamsOf<'thread/rollback'>) => {
      const store = await services.store();
      const history = await store.rollback(params.threadId, params.numTurns);
      return { thread: view(store.require(params.threadId), history.turns) };
    },

    'thread/revert': async (params: ParamsOf<'thread/revert'>) => {
      const store = await services.store();
      const history = await store.revert(params.threadId, params.beforeTurnId);
      return { thread: view(store.require(params.threadId), history.turns) };
    },

    'thread/turns/list': turnsListHandler(services),
  };
  return withStoreErrors(handlers);
}
