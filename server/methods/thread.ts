// The thread lifecycle methods: start, resume, fork, read, list, rename, archive, unarchive,
// unsubscribe, rollback and revert, and paging through a thread's turns.
import { resolve } from 'node:path';
import type { StoredSortKey, ThreadSortKey } from '../protocol/enums';
import type { Turn } from '../protocol/thread';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import type { ThreadSummary } from '../threads/summary';
import type { ThreadSessions } from './threadSessions';
import { settleOrphanedTurns } from './threadView';
import { injectItemsHandler } from './injectItems';
import { itemsListHandler } from './itemsList';
import { turnsListHandler } from './turnsList';
import { revertDroppedTurns } from '../checkpoints/turnUndo';
import { searchPage, type SearchFilters } from './threadListSearch';
import type { ListQuery } from '../threads/listing';
import { worktreesOf } from '../git/worktrees';
import { sectionFilter, sectionOrderPage } from './threadListSections';

/** The store's order for a sort key: recency is last activity (section_position is served apart). */
function storedSortKey(
  sortKey: Exclude<ThreadSortKey, 'section_position'> | null | undefined,
): StoredSortKey {
  return sortKey === 'recency_at' ? 'updated_at' : (sortKey ?? 'created_at');
}

const DEFAULT_PAGE = 25;
const MAX_PAGE = 200;

export function threadHandlers(services: Services, sessions: ThreadSessions): HandlerTable {
  const { loaded } = services;
  const view = (summary: ThreadSummary, turns: Turn[] = []) => sessions.view(summary, turns);

  /** Before a rollback: the dropped turns' files back as they were, or an error and no change. */
  async function revertFilesOfDropped(threadId: string, numTurns: number): Promise<void> {
    const store = await services.store();
    const current = loaded.get(threadId)?.turn;
    if (current)
      throw invalidRequest(`a turn is running on thread ${threadId} (${current.turnId}): interrupt it first`);
    const { turns } = await store.history(threadId);
    if (numTurns > turns.length) return; // the rollback itself answers with the error
    const problem = await revertDroppedTurns(
      services.checkpoints,
      threadId,
      turns.slice(-numTurns).map((t) => t.id),
    );
    if (problem) throw invalidRequest(problem);
  }

  /** The cwd filter, with the worktrees of threads started from those folders (server/git/worktrees.ts). */
  async function listedCwds(cwd: string | string[] | null | undefined): Promise<string[] | undefined> {
    if (cwd == null) return undefined;
    const cwds = (Array.isArray(cwd) ? cwd : [cwd]).map((c) => resolve(c));
    return [...cwds, ...(await worktreesOf(services.home, cwds))];
  }

  const handlers: HandlerTable = {
    'thread/start': (params, { peer }) => sessions.start(params, peer),
    'thread/resume': (params, { peer }) => sessions.resume(params, peer),
    'thread/fork': (params, { peer }) => sessions.fork(params, peer),
    'thread/import': (params, { peer }) => sessions.import(params, peer),

    'thread/read': async (params) => {
      const store = await services.store();
      const summary = store.require(params.threadId);
      if (!params.includeTurns) return { thread: view(summary) };
      const running = loaded.statusOf(summary.id).type === 'active';
      return { thread: view(summary, settleOrphanedTurns((await store.history(summary.id)).turns, running)) };
    },

    'thread/list': async (params, { peer }) => {
      const store = await services.store();
      await store.refresh();
      await services.sections.refresh();
      const query: SearchFilters & Pick<ListQuery, 'sortDirection'> = {
        cursor: params.cursor ?? undefined,
        limit: Math.min(params.limit || DEFAULT_PAGE, MAX_PAGE),
        sortDirection: params.sortDirection ?? 'desc',
        only: sectionFilter(services.sections, params),
        modelProviders: params.modelProviders ?? undefined,
        // As the spec says: no source filter means the interactive sources only.
        sourceKinds: params.sourceKinds?.length ? params.sourceKinds : ['cli', 'vscode'],
        archived: params.archived === true,
        cwd: await listedCwds(params.cwd),
      };
      if (params.sortKey === 'section_position') {
        return sectionOrderPage(store, services.sections, params.sectionId, query, (s) => view(s));
      }
      const searchTerm = params.searchTerm?.trim();
      if (searchTerm) {
        return searchPage(store, services.search, { ...query, searchTerm }, peer.experimentalApi, (s) =>
          view(s),
        );
      }
      const page = store.list({ ...query, sortKey: storedSortKey(params.sortKey) });
      return { data: page.data.map((summary) => view(summary)), nextCursor: page.nextCursor };
    },

    'thread/loaded/list': (params) => {
      const ids = loaded.ids().sort();
      const start = params.cursor ? ids.findIndex((id) => id > params.cursor!) : 0;
      const from = start < 0 ? ids.length : start;
      const limit = params.limit || ids.length || 1;
      const data = ids.slice(from, from + limit);
      const more = from + limit < ids.length;
      return { data, nextCursor: more ? data[data.length - 1]! : null };
    },

    'thread/name/set': async (params, { peer }) => {
      const store = await services.store();
      const name = params.name.trim() || null;
      await store.setName(params.threadId, name);
      sessions.announce(peer, params.threadId, 'thread/name/updated', {
        threadId: params.threadId,
        threadName: name,
      });
      return {};
    },

    'thread/archive': async (params, { peer }) => {
      const store = await services.store();
      await store.archive(params.threadId);
      sessions.announce(peer, params.threadId, 'thread/archived', { threadId: params.threadId });
      setImmediate(() => loaded.unload(params.threadId));
      return {};
    },

    'thread/unarchive': async (params, { peer }) => {
      const store = await services.store();
      const summary = await store.unarchive(params.threadId);
      sessions.announce(peer, params.threadId, 'thread/unarchived', { threadId: params.threadId });
      return { thread: view(summary) };
    },

    'thread/unsubscribe': async (params, { peer }) => {
      (await services.store()).require(params.threadId);
      return { status: loaded.unsubscribe(params.threadId, peer) };
    },

    'thread/rollback': async (params) => {
      const store = await services.store();
      if (params.revertFiles) await revertFilesOfDropped(params.threadId, params.numTurns);
      const history = await store.rollback(params.threadId, params.numTurns);
      return { thread: view(store.require(params.threadId), history.turns) };
    },

    'thread/revert': async (params) => {
      const store = await services.store();
      const history = await store.revert(params.threadId, params.beforeTurnId);
      return { thread: view(store.require(params.threadId), history.turns) };
    },

    'thread/turns/list': turnsListHandler(services),
    'thread/items/list': itemsListHandler(services),
    'thread/inject_items': injectItemsHandler(services),
  };
  return handlers;
}
