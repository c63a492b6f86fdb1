// Finding and summarizing rollouts on disk: what the index is built from when it is missing, and
// what it checks itself against when the files may have changed behind its back.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { Logger } from '../log';
import { foldHistory } from './records';
import { ARCHIVED, SESSIONS, idFromFileName } from './rolloutFiles';
import { readRollout, readSmallRolloutSync, type RolloutContents } from './rolloutReader';
import { summarize, type ThreadSummary } from './summary';

export interface Scanned {
  summary: ThreadSummary;
  bytes: number;
}

/** How an index reads the rollouts of its root: one file, or many (returning those it could not read). */
export interface RolloutSummarizer {
  one(home: string, path: string, log: Logger): Promise<Scanned | undefined>;
  many(
    home: string,
    paths: readonly string[],
    log: Logger,
    each: (scanned: Scanned) => void,
  ): Promise<string[]>;
}

/** Folds a rollout's records into a summary; undefined (and a log line) when it is unusable. */
function summarizeContents(
  path: string,
  { records, bytes }: RolloutContents,
  log: Logger,
): Scanned | undefined {
  const first = records[0];
  if (first?.type !== 'session_meta') {
    log.warn(`ignoring ${path}: its first line does not describe a thread`);
    return undefined;
  }
  const summary = summarize(foldHistory(first.meta, records.slice(1)), path, path.startsWith(ARCHIVED));
  return { summary, bytes };
}

/** Reads and summarizes one rollout; undefined (and a log line) when it is unusable or unreadable. */
export async function summarizeFile(home: string, path: string, log: Logger): Promise<Scanned | undefined> {
  try {
    return summarizeContents(path, await readRollout(join(home, path), log), log);
  } catch (error) {
    log.warn(`ignoring ${path}: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * Summarizes many rollouts and returns the paths that could not be. Small files are read
 * synchronously, several times faster than thousands of async reads, in slices of a few
 * milliseconds so other work keeps flowing.
 */
export async function summarizeFiles(
  home: string,
  paths: readonly string[],
  log: Logger,
  each: (scanned: Scanned) => void,
): Promise<string[]> {
  const SLICE_MS = 15;
  const failed: string[] = [];
  let sliceStart = Date.now();
  for (const path of paths) {
    let scanned: Scanned | undefined;
    try {
      const contents = readSmallRolloutSync(join(home, path), log);
      scanned = contents ? summarizeContents(path, contents, log) : await summarizeFile(home, path, log);
    } catch (error) {
      log.warn(`ignoring ${path}: ${(error as Error).message}`);
    }
    if (scanned) each(scanned);
    else failed.push(path);
    if (Date.now() - sliceStart >= SLICE_MS) {
      await yieldToEvents();
      sliceStart = Date.now();
    }
  }
  return failed;
}

/** Threadline's own rollouts. */
export const OWN_ROLLOUTS: RolloutSummarizer = { one: summarizeFile, many: summarizeFiles };

/** A file's size and modification time as one string, or undefined when it cannot be seen. */
export async function fileStamp(home: string, path: string): Promise<string | undefined> {
  const info = await fs.stat(join(home, path)).catch(() => undefined);
  return info && `${info.size}:${info.mtimeMs}`;
}

/**
 * The files to read: all but those that could not be read before (`unreadable`: path → stamp) and
 * have not changed since. Only those are stat'ed: a stat of each of 10,000 new files was a fifth of a
 * rebuild.
 */
export async function worthReading(
  home: string,
  paths: readonly string[],
  unreadable: Readonly<Record<string, string>>,
): Promise<string[]> {
  const unchanged = new Set<string>();
  for (const path of paths.filter((p) => unreadable[p] !== undefined)) {
    if ((await fileStamp(home, path)) === unreadable[path]) unchanged.add(path);
  }
  return paths.filter((path) => !unchanged.has(path));
}

/** Whether any of the files changed within the last minute: another process may be writing it. */
export async function anyRecent(home: string, paths: readonly string[]): Promise<boolean> {
  const since = Date.now() - 60_000;
  const times = await Promise.all(paths.map((path) => fs.stat(join(home, path)).catch(() => undefined)));
  return times.some((info) => info !== undefined && info.mtimeMs > since);
}

/** The rollout files in one folder (relative to the home), or none when it cannot be read. */
export async function rolloutsIn(home: string, folder: string): Promise<string[]> {
  const files = await fs.readdir(join(home, folder)).catch(() => [] as string[]);
  return files.filter((file) => idFromFileName(file) !== undefined).map((file) => join(folder, file));
}

/** A folder's modification time, or undefined when it is not a folder. */
export async function folderTime(home: string, folder: string): Promise<number | undefined> {
  const info = await fs.stat(join(home, folder)).catch(() => undefined);
  return info?.isDirectory() ? info.mtimeMs : undefined;
}

/** Every folder that can hold rollouts (sessions/YYYY/MM/DD and archived_sessions), with its mtime. */
export async function listFolders(home: string): Promise<Map<string, number>> {
  const numbered = async (folder: string) =>
    (await fs.readdir(join(home, folder), { withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isDirectory() && /^\d+$/.test(entry.name))
      .map((entry) => join(folder, entry.name));
  const years = await numbered(SESSIONS);
  const months = (await Promise.all(years.map(numbered))).flat();
  const days = (await Promise.all(months.map(numbered))).flat();
  const folders = new Map<string, number>();
  await Promise.all(
    [ARCHIVED, ...days].map(async (folder) => {
      const mtimeMs = await folderTime(home, folder);
      if (mtimeMs !== undefined) folders.set(folder, mtimeMs);
    }),
  );
  return folders;
}
