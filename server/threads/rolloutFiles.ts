// Where rollouts live and how they are written: sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl,
// moved whole to archived_sessions/ when archived. Appends to one file are serialized so
// concurrent writers never interleave lines.
import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger } from '../log';
import { parseRecord, type RolloutRecord } from './records';

export const SESSIONS = 'sessions';
export const ARCHIVED = 'archived_sessions';

const pad = (n: number) => String(n).padStart(2, '0');

export function dayDir(createdAtMs: number): string {
  const d = new Date(createdAtMs);
  return join(String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate()));
}

export function rolloutFileName(id: string, createdAtMs: number): string {
  const stamp = new Date(createdAtMs).toISOString().slice(0, 19).replace(/:/g, '-');
  return `rollout-${stamp}-${id}.jsonl`;
}

/** The thread id a rollout file name carries, if it is one of ours. */
export function idFromFileName(file: string): string | undefined {
  const match = /^rollout-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-([0-9a-f-]{36})\.jsonl$/.exec(basename(file));
  return match?.[1];
}

/** The dated sessions folder a file name belongs in (used when unarchiving). */
export function dayDirOfFileName(file: string): string | undefined {
  const match = /^rollout-(\d{4})-(\d\d)-(\d\d)T/.exec(basename(file));
  return match ? join(match[1]!, match[2]!, match[3]!) : undefined;
}

export class AppendQueue {
  private readonly queues = new Map<string, Promise<void>>();

  /** Appends values as JSON lines to a file, after every earlier append to the same file. */
  append(path: string, values: readonly unknown[]): Promise<void> {
    const text = values.map((v) => JSON.stringify(v) + '\n').join('');
    const previous = this.queues.get(path) ?? Promise.resolve();
    const next = previous.then(() => fs.appendFile(path, text, { encoding: 'utf8', mode: 0o600 }));
    const settled = next.catch(() => {});
    this.queues.set(path, settled);
    void settled.then(() => {
      if (this.queues.get(path) === settled) this.queues.delete(path);
    });
    return next;
  }

  /** Waits for every pending append (before a file is moved, and at shutdown). */
  async flush(path?: string): Promise<void> {
    if (path) await this.queues.get(path);
    else await Promise.all(this.queues.values());
  }
}

/** Reads a rollout; lines that cannot be parsed are skipped and logged, never thrown. */
export async function readRollout(path: string, log: Logger): Promise<RolloutRecord[]> {
  const text = await fs.readFile(path, 'utf8');
  const records: RolloutRecord[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseRecord(line);
    if (record) records.push(record);
    else {
      const truncated = index === lines.length - 1 ? ' (truncated last line)' : '';
      log.warn(`skipping unreadable line ${index + 1} of ${path}${truncated}`);
    }
  });
  return records;
}

/** Reads only the first line: enough to index a thread. */
export async function readFirstRecord(path: string): Promise<RolloutRecord | undefined> {
  const handle = await fs.open(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let position = 0;
    for (;;) {
      const buffer = Buffer.alloc(16 * 1024);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      const newline = chunk.indexOf(0x0a);
      chunks.push(newline >= 0 ? chunk.subarray(0, newline) : chunk);
      if (newline >= 0 || position > 4 * 1024 * 1024) break;
      position += bytesRead;
    }
    return parseRecord(Buffer.concat(chunks).toString('utf8'));
  } finally {
    await handle.close();
  }
}
