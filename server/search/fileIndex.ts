// The searchable list of one root's files and folders. It builds in the background (searches
// meanwhile see what has been found so far) and follows changes through one watcher per folder,
// re-reading only the folder that changed.
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import fuzzysort, { type Prepared } from 'fuzzysort';
import { collectNow } from '../idleCollection';
import { optimized } from '../optimizingCompiler';
import { isIgnored, readEntries, rootScope, walk, type IgnoreScope, type WalkedEntry } from './gitignoreWalk';
import { rankEntries } from './fuzzyRank';

export interface IndexedEntry {
  readonly path: string;
  readonly name: string;
  readonly isDirectory: boolean;
  readonly preparedPath: Prepared;
  readonly preparedName: Prepared;
}

// inotify watches are a per-user system resource shared with the editor; past this many folders
// the index stops following changes rather than starve other programs.
const maxWatchedFolders = 8192;
const settleMs = 50;

export class FileIndex {
  private readonly entries = new Map<string, IndexedEntry>();
  private readonly scopes = new Map<string, IgnoreScope>();
  private readonly watchers = new Map<string, FSWatcher>();
  /** Folders to re-read, and whether their own .gitignore changed. */
  private readonly pending = new Map<string, boolean>();
  private flushTimer: NodeJS.Timeout | undefined;
  private snapshot: IndexedEntry[] | undefined;
  private disposed = false;
  /** Settles when the first full walk is done (and the ranking code is ready for the first query). */
  readonly ready: Promise<void>;
  /** Bumped on every change, so a caller can tell its results are stale. */
  version = 0;
  /** Whether changes are followed (false past the watch budget). */
  watching = true;

  constructor(readonly root: string) {
    this.ready = this.walkFrom('', rootScope).then(() => warmUp(this.list()));
  }

  get size(): number {
    return this.entries.size;
  }

  /** Every entry found so far, in a stable array until the next change. */
  list(): readonly IndexedEntry[] {
    this.snapshot ??= [...this.entries.values()];
    return this.snapshot;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.flushTimer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private walkFrom(dir: string, scope: IgnoreScope): Promise<void> {
    return walk(
      this.root,
      dir,
      scope,
      { onFolder: (folder, inner) => this.enterFolder(folder, inner), onEntry: (entry) => this.add(entry) },
      () => this.disposed,
    );
  }

  private enterFolder(dir: string, scope: IgnoreScope): void {
    this.scopes.set(dir, scope);
    if (!this.watching || this.watchers.has(dir) || this.disposed) return;
    if (this.watchers.size >= maxWatchedFolders) {
      this.watching = false;
      return;
    }
    try {
      const watcher = watch(join(this.root, dir), { persistent: false }, (_event, name) =>
        this.changed(dir, name === '.gitignore'),
      );
      watcher.on('error', () => this.unwatch(dir));
      this.watchers.set(dir, watcher);
    } catch (error) {
      // Out of inotify watches: stop following changes instead of following some of them. Any other
      // failure means the folder went away between listing and watching; its parent's event removes it.
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') this.watching = false;
    }
  }

  private add(entry: WalkedEntry): void {
    const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
    this.entries.set(entry.path, {
      path: entry.path,
      name,
      isDirectory: entry.isDirectory,
      preparedPath: fuzzysort.prepare(entry.path),
      preparedName: fuzzysort.prepare(name),
    });
    this.touch();
  }

  private touch(): void {
    this.snapshot = undefined;
    this.version++;
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  private changed(dir: string, rulesChanged: boolean): void {
    this.pending.set(dir, rulesChanged || (this.pending.get(dir) ?? false));
    clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => void this.flush(), settleMs);
  }

  private async flush(): Promise<void> {
    const dirs = [...this.pending];
    this.pending.clear();
    for (const [dir, rulesChanged] of dirs) if (!this.disposed) await this.refresh(dir, rulesChanged);
  }

  /** Re-reads one folder: drops what vanished (with everything under it), walks what appeared. */
  private async refresh(dir: string, rulesChanged: boolean): Promise<void> {
    const scope = this.scopes.get(dir);
    if (!scope) return;
    const prefix = dir ? `${dir}/` : '';
    if (rulesChanged) {
      // A new or edited .gitignore can hide or reveal anything below it: list the folder afresh,
      // and swap the listing in at once so searches meanwhile still see the old one.
      const parent = dir ? this.scopes.get(dir.slice(0, Math.max(0, dir.lastIndexOf('/')))) : rootScope;
      const folders: [string, IgnoreScope][] = [];
      const found: WalkedEntry[] = [];
      await walk(
        this.root,
        dir,
        parent ?? rootScope,
        { onFolder: (folder, inner) => folders.push([folder, inner]), onEntry: (entry) => found.push(entry) },
        () => this.disposed,
      );
      this.removeUnder(prefix);
      for (const [folder, inner] of folders) this.enterFolder(folder, inner);
      for (const entry of found) this.add(entry);
      return;
    }
    const present = new Map<string, boolean>();
    for (const dirent of await readEntries(this.root, dir)) {
      const path = `${prefix}${dirent.name}`;
      if (!isIgnored(scope, path, dirent.isDirectory())) present.set(path, dirent.isDirectory());
    }
    for (const entry of this.childrenOf(prefix)) {
      if (present.get(entry.path) !== entry.isDirectory) this.remove(entry.path);
    }
    for (const [path, isDirectory] of present) {
      if (this.entries.has(path)) continue;
      this.add({ path, isDirectory });
      if (isDirectory) await this.walkFrom(path, scope);
    }
  }

  private childrenOf(prefix: string): IndexedEntry[] {
    return [...this.entries.values()].filter(
      (entry) => entry.path.startsWith(prefix) && !entry.path.includes('/', prefix.length),
    );
  }

  private remove(path: string): void {
    this.entries.delete(path);
    this.removeUnder(`${path}/`);
    this.unwatch(path);
    this.scopes.delete(path);
    this.touch();
  }

  private removeUnder(prefix: string): void {
    for (const path of [...this.entries.keys()]) {
      if (!path.startsWith(prefix)) continue;
      this.entries.delete(path);
      this.unwatch(path);
      this.scopes.delete(path);
    }
    this.touch();
  }
}

let warm = false;

/**
 * Ranks once, unseen, when the first index of the process is built: the first query otherwise runs
 * while V8 is still compiling the ranking loops (300 ms instead of 40 on 100,000 files).
 */
function warmUp(entries: readonly IndexedEntry[]): void {
  if (warm || entries.length === 0) return;
  warm = true;
  optimized(() => {
    rankEntries('a', entries, 50);
    rankEntries('eoi', entries, 50);
  });
  collectNow();
}
