// One connection's filesystem watches (fs/watch): node's fs.watch on a file or a directory tree, its
// events gathered for a moment so a burst of writes (an editor's save, a git checkout) is one
// report of the paths that changed. Bounded per connection, since each watch holds OS resources.
import { watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Watches one connection may hold at once. */
export const maxWatchesPerConnection = 64;
/**
 * Folders one connection's watches may cover together where node watches each folder itself (Linux:
 * one inotify watch per folder, a per-user resource shared with the editor, set up while the server
 * waits). Elsewhere a recursive watch is one OS handle, and counts as one.
 */
export const maxWatchedFolders = 8192;
/** How long events are gathered after the first one before they are reported together. */
const gatherMs = 100;
/** Paths in one report at most; past that the watched root alone stands for "much changed". */
const maxPathsPerReport = 1000;

export type ChangeListener = (watchId: string, changedPaths: string[]) => void;

interface Watch {
  watcher: FSWatcher;
  folders: number;
  pending: Set<string>;
  timer: NodeJS.Timeout | undefined;
}

export class WatchLimitError extends Error {}
export class DuplicateWatchError extends Error {}

export class ConnectionWatches {
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly onChange: ChangeListener) {}

  /**
   * Starts watching `path` (canonical, existing) as `watchId`; `directory` watches its whole tree,
   * which costs `folders` of the connection's folder budget (see foldersToWatch).
   */
  add(watchId: string, path: string, directory: boolean, folders = 1): void {
    if (this.watches.has(watchId)) throw new DuplicateWatchError(`Watch ${watchId} already exists`);
    if (this.watches.size >= maxWatchesPerConnection)
      throw new WatchLimitError(
        `Too many watches: a connection may hold ${maxWatchesPerConnection}; unwatch one first`,
      );
    const inUse = [...this.watches.values()].reduce((sum, watch) => sum + watch.folders, 0);
    if (folders > maxWatchedFolders)
      throw new WatchLimitError(
        `Cannot watch ${path}: it has more than ${maxWatchedFolders} folders, the most a connection may watch; watch a smaller folder`,
      );
    if (inUse + folders > maxWatchedFolders)
      throw new WatchLimitError(
        `Cannot watch ${path}: its ${folders} folders and the ${inUse} this connection watches already exceed ${maxWatchedFolders}; unwatch one first`,
      );
    // Recursive watching is native on macOS and Windows and emulated by node on Linux; where a
    // platform refuses it, the directory's own entries are still watched.
    let watcher: FSWatcher;
    try {
      watcher = watch(path, { recursive: directory, persistent: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM') throw error;
      watcher = watch(path, { persistent: false });
    }
    const entry: Watch = { watcher, folders, pending: new Set(), timer: undefined };
    watcher.on('change', (_event, name) => {
      const changed = directory && name ? join(path, name.toString()) : path;
      if (entry.pending.size < maxPathsPerReport) entry.pending.add(changed);
      else entry.pending = new Set([path]);
      this.schedule(watchId, entry);
    });
    // The watched path went away or became unreadable: reported once as a change, then the watch ends.
    watcher.on('error', () => {
      entry.pending.add(path);
      this.flush(watchId, entry);
      this.remove(watchId);
    });
    this.watches.set(watchId, entry);
  }

  /** Ends a watch; false when there was none by that id. */
  remove(watchId: string): boolean {
    const entry = this.watches.get(watchId);
    if (!entry) return false;
    this.watches.delete(watchId);
    clearTimeout(entry.timer);
    entry.watcher.close();
    return true;
  }

  /** Ends every watch (the connection closed); answers how many there were. */
  clear(): number {
    const ids = [...this.watches.keys()];
    for (const watchId of ids) this.remove(watchId);
    return ids.length;
  }

  private schedule(watchId: string, entry: Watch): void {
    // Timed from the first event, not the last, so a steady stream of writes is still reported.
    entry.timer ??= setTimeout(() => this.flush(watchId, entry), gatherMs);
  }

  private flush(watchId: string, entry: Watch): void {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.pending.size === 0 || this.watches.get(watchId) !== entry) return;
    const changedPaths = [...entry.pending].sort();
    entry.pending.clear();
    this.onChange(watchId, changedPaths);
  }
}

/**
 * The folders a watch of `path` costs: 1, or on Linux every folder of the tree (symbolic links not
 * followed), counted without blocking and only up to just past the budget.
 */
export async function foldersToWatch(path: string, directory: boolean): Promise<number> {
  if (!directory || process.platform !== 'linux') return 1;
  let count = 1;
  const queue = [path];
  while (queue.length > 0 && count <= maxWatchedFolders) {
    const dir = queue.pop()!;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      count++;
      queue.push(join(dir, entry.name));
    }
  }
  return count;
}
