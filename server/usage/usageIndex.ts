// Every rollout's usage, kept so a call reads only the rollouts that changed: each file's usage is
// cached under its path with the size and mtime it had when read, and saved beside the thread index
// as usage-index.json, so a restart reads nothing that has not changed either. A call lists the
// rollout folders and stats each file (no rollout is opened unless its stamp changed), which keeps
// it to a few hundred milliseconds on ten thousand threads. A file that cannot be read counts as no
// usage (and is remembered by its stamp, so it is not tried again until it changes); a missing or
// unreadable cache is rebuilt from the rollouts.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { Logger } from '../log';
import { isTokenUsage } from '../providers/tokenUsage';
import { idFromFileName } from '../threads/rolloutFiles';
import { listFolders, rolloutsIn } from '../threads/rolloutScan';
import { writeFileAtomic } from '../tools/applyPatch/atomicFile';
import { readFileUsage, type FileUsage } from './rolloutUsage';

export const USAGE_INDEX = 'usage-index.json';
// Bumped when FileUsage changes shape or meaning: an older cache is rebuilt.
const VERSION = 1;
const STAT_BATCH = 256;

interface Entry {
  /** `size:mtimeMs` when read. */
  stamp: string;
  usage: FileUsage;
}

export class UsageIndex {
  private entries: Map<string, Entry> | undefined;
  /** Calls run one at a time: a second waits for the first's reads instead of repeating them. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly home: string,
    private readonly log: Logger,
  ) {}

  /** The usage of every rollout under the home, read again where a file changed. */
  all(): Promise<FileUsage[]> {
    const next = this.queue.then(() => this.refresh());
    this.queue = next.catch(() => {});
    return next;
  }

  private async refresh(): Promise<FileUsage[]> {
    const entries = (this.entries ??= await this.load());
    const folders = [...(await listFolders(this.home)).keys()];
    const paths = (await Promise.all(folders.map((folder) => rolloutsIn(this.home, folder)))).flat();
    let changed = false;
    const present = new Set(paths);
    for (const path of entries.keys()) {
      if (present.has(path)) continue;
      entries.delete(path);
      changed = true;
    }
    for (let at = 0; at < paths.length; at += STAT_BATCH) {
      const batch = paths.slice(at, at + STAT_BATCH);
      const stamps = await Promise.all(batch.map((path) => this.stamp(path)));
      for (const [i, path] of batch.entries()) {
        const stamp = stamps[i];
        if (stamp === undefined) {
          if (entries.delete(path)) changed = true;
        } else if (entries.get(path)?.stamp !== stamp) {
          entries.set(path, { stamp, usage: await this.read(path) });
          changed = true;
        }
      }
      await yieldToEvents();
    }
    if (changed) await this.save(entries);
    return [...entries.values()].map((entry) => entry.usage);
  }

  private async stamp(path: string): Promise<string | undefined> {
    const info = await fs.stat(join(this.home, path)).catch(() => undefined);
    return info?.isFile() ? `${info.size}:${info.mtimeMs}` : undefined;
  }

  private async read(path: string): Promise<FileUsage> {
    const threadId = idFromFileName(path)!;
    try {
      return await readFileUsage(threadId, join(this.home, path), this.log);
    } catch (error) {
      this.log.warn(`usage: skipping ${path}: ${(error as Error).message}`);
      return { threadId, buckets: [], longestTurnMs: null, lastUsedMs: null };
    }
  }

  private async load(): Promise<Map<string, Entry>> {
    const file = join(this.home, USAGE_INDEX);
    try {
      const saved = JSON.parse(await fs.readFile(file, 'utf8')) as { version?: unknown; files?: unknown };
      if (saved.version === VERSION && typeof saved.files === 'object' && saved.files !== null) {
        return new Map(Object.entries(saved.files as Record<string, Entry>).filter(([, e]) => isEntry(e)));
      }
      this.log.info(`usage: ${USAGE_INDEX} is from another version; reading the rollouts again`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log.warn(
          `usage: ${USAGE_INDEX} is unreadable (${(error as Error).message}); reading the rollouts again`,
        );
    }
    return new Map();
  }

  private async save(entries: Map<string, Entry>): Promise<void> {
    const body = JSON.stringify({ version: VERSION, files: Object.fromEntries(entries) });
    // A cache that cannot be saved costs the next start some reads, never this answer.
    await writeFileAtomic(join(this.home, USAGE_INDEX), Buffer.from(body), 0o600).catch((error: Error) =>
      this.log.warn(`usage: could not save ${USAGE_INDEX}: ${error.message}`),
    );
  }
}

/** Enough of an entry's shape that the report can trust it; anything else is read again. */
function isEntry(value: unknown): value is Entry {
  const entry = value as Partial<Entry> | null;
  return (
    typeof entry?.stamp === 'string' &&
    typeof entry.usage?.threadId === 'string' &&
    Array.isArray(entry.usage.buckets) &&
    entry.usage.buckets.every(
      (b) => typeof b?.day === 'string' && typeof b.model === 'string' && isTokenUsage(b.tokens),
    )
  );
}
