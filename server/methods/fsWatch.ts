// fs/watch and fs/unwatch: a client's watches on host paths, reported by fs/changed on the
// connection that made them and ended when it closes. Paths follow the other fs/* methods' rule
// (absolute, answered with the path and reason when they cannot be used).
import { realpath, stat } from 'node:fs/promises';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { invalidRequest } from '../rpc/rpcError';
import type { Logger } from '../log';
import { ConnectionWatches, DuplicateWatchError, foldersToWatch, WatchLimitError } from '../fs/watches';
import { absolute, fsError } from './fs';

export function fsWatchHandlers(log: Logger): HandlerTable {
  const byConnection = new Map<number, ConnectionWatches>();
  const watchesOf = (peer: RequestContext['peer']) => {
    let watches = byConnection.get(peer.id);
    if (!watches) {
      const created = new ConnectionWatches((watchId, changedPaths) =>
        peer.notify('fs/changed', { watchId, changedPaths }),
      );
      byConnection.set(peer.id, created);
      peer.onClose(() => {
        const ended = created.clear();
        if (ended > 0) log.debug(`connection ${peer.id} closed: ended ${ended} file watch(es)`);
        byConnection.delete(peer.id);
      });
      watches = created;
    }
    return watches;
  };

  return {
    'fs/watch': async (params: ParamsOf<'fs/watch'>, { peer }): Promise<ResultOf<'fs/watch'>> => {
      const given = absolute('path', params.path);
      let path: string;
      let directory: boolean;
      try {
        path = await realpath(given);
        directory = (await stat(path)).isDirectory();
      } catch (error) {
        throw fsError('watch', given, error);
      }
      const folders = await foldersToWatch(path, directory);
      try {
        watchesOf(peer).add(params.watchId, path, directory, folders);
      } catch (error) {
        if (error instanceof DuplicateWatchError || error instanceof WatchLimitError)
          throw invalidRequest(error.message);
        // inotify reports running out of watches as ENOSPC, which is not about disk space.
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC')
          throw invalidRequest(`Cannot watch ${path}: the system's limit on file watches is reached`);
        throw fsError('watch', path, error);
      }
      return { path };
    },

    'fs/unwatch': (params: ParamsOf<'fs/unwatch'>, { peer }): ResultOf<'fs/unwatch'> => {
      if (!byConnection.get(peer.id)?.remove(params.watchId))
        throw invalidRequest(`No watch ${params.watchId} on this connection`);
      return {};
    },
  };
}
