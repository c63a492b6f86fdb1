// fuzzyFileSearch (one answer once the roots are indexed) and its session form, where each
// sessionUpdate query is answered by fuzzyFileSearch/sessionUpdated notifications — at once from
// what is indexed so far, again when indexing finishes — then fuzzyFileSearch/sessionCompleted.
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import { optimized } from '../optimizingCompiler';
import type * as FileSearch from '../search/fileIndexes';

const maxResults = 50;

interface Session {
  roots: string[];
  /** Bumped by each update, so an older query's late answer is dropped. */
  generation: number;
}

async function checkedRoots(roots: readonly string[]): Promise<string[]> {
  if (roots.length === 0) throw invalidParams('Invalid params: roots: give at least one folder');
  return Promise.all(
    roots.map(async (root) => {
      if (!isAbsolute(root))
        throw invalidParams(`Invalid params: roots: expected an absolute path, got "${root}"`);
      const found = await stat(root).catch(() => undefined);
      if (!found?.isDirectory()) throw invalidParams(`Invalid params: roots: ${root} is not a folder`);
      return resolve(root);
    }),
  );
}

interface Files {
  indexes: FileSearch.FileIndexes;
  search: typeof FileSearch.searchIndexes;
}

export function fuzzySearchHandlers(): HandlerTable {
  // The file indexes and their ranking (fuzzysort) are a bundle of their own, loaded at the first
  // search (esbuild.mjs, onDemand): most starts never search files. Ranking is pure computation, run
  // with the optimizing compiler on (here, in the core, which holds the compiler's state).
  let loading: Promise<Files> | undefined;
  const files = () =>
    (loading ??= import('../search/fileIndexes').then((m) => ({
      indexes: new m.FileIndexes(),
      search: m.searchIndexes,
    })));
  const tokens = new Map<string, number>();
  const sessions = new Map<number, Map<string, Session>>();
  const sessionsOf = (peer: RequestContext['peer'], { indexes }: Files) => {
    let mine = sessions.get(peer.id);
    if (!mine) {
      const created = new Map<string, Session>();
      sessions.set(peer.id, created);
      peer.onClose(() => {
        for (const session of created.values()) indexes.release(session.roots);
        sessions.delete(peer.id);
      });
      mine = created;
    }
    return mine;
  };
  const sessionOf = (peer: RequestContext['peer'], loaded: Files, sessionId: string) => {
    const session = sessionsOf(peer, loaded).get(sessionId);
    if (!session)
      throw invalidRequest(
        `No fuzzy file search session ${sessionId}; start it with fuzzyFileSearch/sessionStart`,
      );
    return session;
  };

  return {
    fuzzyFileSearch: async (params: ParamsOf<'fuzzyFileSearch'>): Promise<ResultOf<'fuzzyFileSearch'>> => {
      const roots = await checkedRoots(params.roots);
      const { indexes, search } = await files();
      // A newer search with the same token makes this one moot: it answers empty, at once.
      const token = params.cancellationToken ?? undefined;
      const mine = token === undefined ? 0 : (tokens.get(token) ?? 0) + 1;
      if (token !== undefined) tokens.set(token, mine);
      const found = indexes.use(roots);
      await Promise.all(found.map((index) => index.ready));
      if (token !== undefined && tokens.get(token) !== mine) return { files: [] };
      if (token !== undefined) tokens.delete(token);
      return { files: optimized(() => search(found, params.query, maxResults)) };
    },

    'fuzzyFileSearch/sessionStart': async (params: ParamsOf<'fuzzyFileSearch/sessionStart'>, { peer }) => {
      const loaded = await files();
      const mine = sessionsOf(peer, loaded);
      if (mine.has(params.sessionId))
        throw invalidRequest(`Fuzzy file search session ${params.sessionId} already exists`);
      const roots = await checkedRoots(params.roots);
      loaded.indexes.use(roots, true);
      mine.set(params.sessionId, { roots, generation: 0 });
      return {};
    },

    'fuzzyFileSearch/sessionUpdate': async (params: ParamsOf<'fuzzyFileSearch/sessionUpdate'>, { peer }) => {
      const loaded = await files();
      const session = sessionOf(peer, loaded, params.sessionId);
      const generation = ++session.generation;
      const found = loaded.indexes.use(session.roots);
      const current = () =>
        sessionsOf(peer, loaded).get(params.sessionId) === session && session.generation === generation;
      const send = () =>
        peer.notify('fuzzyFileSearch/sessionUpdated', {
          sessionId: params.sessionId,
          query: params.query,
          files: optimized(() => loaded.search(found, params.query, maxResults)),
        });
      const versions = () => found.map((index) => index.version).join();
      setImmediate(() => {
        if (!current()) return;
        const sent = versions();
        send();
        void Promise.all(found.map((index) => index.ready)).then(() => {
          if (!current()) return;
          if (versions() !== sent) send();
          peer.notify('fuzzyFileSearch/sessionCompleted', { sessionId: params.sessionId });
        });
      });
      return {};
    },

    'fuzzyFileSearch/sessionStop': async (params: ParamsOf<'fuzzyFileSearch/sessionStop'>, { peer }) => {
      const loaded = await files();
      const session = sessionOf(peer, loaded, params.sessionId);
      sessionsOf(peer, loaded).delete(params.sessionId);
      loaded.indexes.release(session.roots);
      return {};
    },
  };
}
