// The history of finished external-agent imports (externalAgentConfig/import/readHistories), kept in
// the home as external-agent-imports.json: {version, imports: [...]}, oldest first. Our own imports
// are recorded when they finish; a client records one it completed itself (recordHistory). What a
// client records is bounded, and only the newest imports are kept, so the file cannot grow without end.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { ImportHistory } from '../protocol/externalAgentConfig';
import { readFileNoFollow, writeFileAtomic } from '../tools/applyPatch/atomicFile';
import { AppendQueue } from '../threads/rolloutFiles';

export const IMPORT_HISTORY_FILE = 'external-agent-imports.json';
const VERSION = 1;
/** How many imports are kept; older ones are dropped first. */
export const KEPT_IMPORTS = 100;
/** One import's record, as JSON text. */
export const MAX_IMPORT_BYTES = 256 * 1024;

export class ImportHistoryStore {
  private readonly file: string;
  private readonly queue = new AppendQueue();

  constructor(private readonly home: string) {
    this.file = join(home, IMPORT_HISTORY_FILE);
  }

  /** Every kept import, newest first. An unreadable file is an empty history, not an error. */
  async read(): Promise<ImportHistory[]> {
    return (await this.stored()).reverse();
  }

  record(entry: ImportHistory): Promise<void> {
    return this.queue.exclusive(this.file, async () => {
      const imports = [...(await this.stored()), entry].slice(-KEPT_IMPORTS);
      await fs.mkdir(this.home, { recursive: true });
      const text = JSON.stringify({ version: VERSION, imports });
      await writeFileAtomic(this.file, Buffer.from(text, 'utf8'), 0o600);
    });
  }

  private async stored(): Promise<ImportHistory[]> {
    // readFileNoFollow: a link planted in the file's place is not read through.
    const bytes = await readFileNoFollow(this.file).catch(() => null);
    if (!bytes) return [];
    try {
      const parsed = JSON.parse(bytes.toString('utf8')) as { version?: number; imports?: unknown };
      if (parsed.version !== VERSION || !Array.isArray(parsed.imports)) return [];
      return parsed.imports.filter(isImportHistory);
    } catch {
      return [];
    }
  }
}

function isImportHistory(value: unknown): value is ImportHistory {
  const h = value as ImportHistory;
  return (
    typeof h === 'object' &&
    h !== null &&
    typeof h.importId === 'string' &&
    Number.isInteger(h.completedAtMs) &&
    Array.isArray(h.successes) &&
    Array.isArray(h.failures)
  );
}
