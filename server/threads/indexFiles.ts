// The listing index's files in the home (threadIndex.ts keeps the index itself):
//
//   thread-index.json      a snapshot: {version, clean, folders, values, columns}
//   thread-index.journal   changes since that snapshot, one JSON line each (put | del | folder | unreadable)
//
// A snapshot is written to a temporary file, then renamed over the old one, so a reader never sees half.
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { renameRetrying } from '../fs/renameRetrying';
import type { RolloutSummarizer } from './rolloutScan';
import type { ThreadSummary } from './summary';
import type { TableSnapshot } from './summaryTable';

export const VERSION = 4;
export const SNAPSHOT = 'thread-index.json';
export const JOURNAL = 'thread-index.journal';

export interface Snapshot extends TableSnapshot {
  version: number;
  /** Written at a clean shutdown of the only process using this home. */
  clean: boolean;
  folders: Record<string, number>;
  /** Files that are not rollouts we can read: path → `size:mtimeMs` when that was found. */
  unreadable?: Record<string, string>;
  /** The rollout root, for an index kept outside it. */
  root?: string;
}

/** Where an index keeps itself and how it reads its rollouts; by default, Threadline's own home. */
export interface IndexOptions {
  /** The folder of the snapshot and journal (default: the rollout root). */
  dir?: string;
  /** Their file names (default: SNAPSHOT and JOURNAL). */
  snapshot?: string;
  journal?: string;
  summarizer?: RolloutSummarizer;
}

/** Journal lines carry their writer, so a process can tell that another one shares the home. */
export type JournalEntry = { w: string } & (
  | { op: 'put'; thread: ThreadSummary; bytes: number }
  | { op: 'del'; id: string }
  | { op: 'folder'; folder: string; mtimeMs: number }
  | { op: 'unreadable'; path: string; stamp: string | null }
);
export type Change = JournalEntry extends infer E ? (E extends JournalEntry ? Omit<E, 'w'> : never) : never;

/** The snapshot file's mtime and size ('' when there is none): another writer changes it. */
export async function snapshotStamp(path: string): Promise<string> {
  const info = await fs.stat(path).catch(() => undefined);
  return info ? `${info.mtimeMs}:${info.size}` : '';
}

/** Whether the journal holds a line another writer than `writer` wrote. */
export async function othersJournaled(path: string, writer: string): Promise<boolean> {
  const journal = await fs.readFile(path, 'utf8').catch(() => '');
  return journal.split('\n').some((line) => line && !line.endsWith(`"w":"${writer}"}`));
}

/** Replaces the snapshot whole (temp file, then rename) and drops the journal it folds in. */
export async function writeSnapshot(
  paths: { snapshot: string; journal: string },
  writer: string,
  snapshot: Snapshot,
): Promise<void> {
  const text = JSON.stringify(snapshot);
  await fs.mkdir(dirname(paths.snapshot), { recursive: true, mode: 0o700 });
  const temp = `${paths.snapshot}.${writer}.tmp`;
  await fs.writeFile(temp, text, { mode: 0o600 });
  await renameRetrying(temp, paths.snapshot);
  await fs.rm(paths.journal, { force: true });
}
