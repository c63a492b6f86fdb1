// Finding and summarizing rollouts on disk: what the index is built from when it is missing, and
// what it checks itself against when the files may have changed behind its back.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { foldHistory } from './records';
import { ARCHIVED, SESSIONS, idFromFileName, readRollout } from './rolloutFiles';
import { summarize, type ThreadSummary } from './summary';

export interface Scanned {
  summary: ThreadSummary;
  bytes: number;
}

/** Reads and folds one rollout into a summary; undefined (and a log line) when it is unusable. */
export async function summarizeFile(home: string, path: string, log: Logger): Promise<Scanned | undefined> {
  try {
    const { records, bytes } = await readRollout(join(home, path), log);
    const first = records[0];
    if (first?.type !== 'session_meta') {
      log.warn(`ignoring ${path}: its first line does not describe a thread`);
      return undefined;
    }
    const summary = summarize(foldHistory(first.meta, records.slice(1)), path, path.startsWith(ARCHIVED));
    return { summary, bytes };
  } catch (error) {
    log.warn(`ignoring ${path}: ${(error as Error).message}`);
    return undefined;
  }
}

/** Summarizes files a few at a time: reading thousands at once would only queue up in libuv. */
export async function summarizeFiles(
  home: string,
  paths: readonly string[],
  log: Logger,
  each: (scanned: Scanned) => void,
): Promise<void> {
  const BATCH = 32;
  for (let i = 0; i < paths.length; i += BATCH) {
    const batch = paths.slice(i, i + BATCH).map((path) => summarizeFile(home, path, log));
    for (const scanned of await Promise.all(batch)) if (scanned) each(scanned);
  }
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
