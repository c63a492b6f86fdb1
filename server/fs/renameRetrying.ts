// Renames that outlast a brief lock. On Windows an antivirus scanner, the search indexer or an
// editor's file watcher opens a file just written, and while it holds it a rename over it fails
// with EPERM, EACCES or EBUSY; editors retry for a moment before giving up, and so does the server.
import { promises as fs } from 'node:fs';

/** The waits between attempts (ms): about a second in all. */
export const RENAME_BACKOFF_MS: readonly number[] = [10, 30, 60, 100, 200, 300, 400];

const TRANSIENT = new Set(['EPERM', 'EACCES', 'EBUSY']);

/** Renames `from` to `to`, retrying while the failure is one a short-lived lock gives. */
export async function renameRetrying(
  from: string,
  to: string,
  rename: (from: string, to: string) => Promise<void> = fs.rename,
  backoff: readonly number[] = process.platform === 'win32' ? RENAME_BACKOFF_MS : [],
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await rename(from, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= backoff.length || code === undefined || !TRANSIENT.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, backoff[attempt]));
    }
  }
}
