// Where rollouts live and how they are written: sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl (UTC),
// moved whole to archived_sessions/ when archived. Appends to one file are serialized so concurrent
// writers in this process never interleave lines.
import { constants, promises as fs } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { jsonPieces } from './jsonPieces';
import { asWriteError } from './storeErrors';

export const SESSIONS = 'sessions';
export const ARCHIVED = 'archived_sessions';

/** How much of a long record is turned into bytes at a time (small enough to stay out of V8's large-object space). */
const WRITE_SLICE = 64 * 1024;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The UTC date and time parts rollout names use (built by hand: listing derives many paths). */
function utc(ms: number) {
  const d = new Date(ms);
  return {
    year: pad(d.getUTCFullYear(), 4),
    month: pad(d.getUTCMonth() + 1),
    day: pad(d.getUTCDate()),
    time: `${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${pad(d.getUTCSeconds())}`,
  };
}

export function dayDir(createdAtMs: number): string {
  const { year, month, day } = utc(createdAtMs);
  return year + sep + month + sep + day;
}

export function rolloutFileName(id: string, createdAtMs: number): string {
  const { year, month, day, time } = utc(createdAtMs);
  return `rollout-${year}-${month}-${day}T${time}-${id}.jsonl`;
}

/** Where a thread's rollout lives, relative to the home, when it follows the naming scheme. */
export function rolloutPath(id: string, createdAt: number, archived: boolean): string {
  const ms = createdAt * 1000;
  return (archived ? ARCHIVED : SESSIONS + sep + dayDir(ms)) + sep + rolloutFileName(id, ms);
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

/** Where a rollout goes when unarchived: its creation day's folder under sessions/. */
export function unarchivedPath(path: string, createdAt: number): string {
  const file = basename(path);
  return join(SESSIONS, dayDirOfFileName(file) ?? dayDir(createdAt * 1000), file);
}

/** Creates the folder a rollout goes in; a home that cannot be written says so with the path. */
export async function mkdirFor(file: string): Promise<void> {
  const folder = dirname(file);
  await fs.mkdir(folder, { recursive: true, mode: 0o700 }).catch(async (error: NodeJS.ErrnoException) => {
    // A recursive mkdir on a read-only file system reports ENOENT: ask the folder that exists.
    let existing = dirname(folder);
    while (error.code === 'ENOENT' && existing !== dirname(existing) && !(await exists(existing))) {
      existing = dirname(existing);
    }
    const refusal = await fs.access(existing, constants.W_OK).then(
      () => error,
      (denied: unknown) => denied,
    );
    throw asWriteError(error.code === 'ENOENT' ? refusal : error, folder);
  });
}

export const exists = (path: string) =>
  fs.access(path).then(
    () => true,
    () => false,
  );

/** Whether a non-empty file's last byte is not a newline: a crash cut its last line short. */
async function endsMidLine(path: string): Promise<boolean> {
  const handle = await fs.open(path, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}

/**
 * Serializes work per key (a file path or a thread id) and appends JSON lines to files. The first
 * append to a file whose last line was cut short (a crash mid-write) starts a new line, so the torn
 * line costs only itself.
 */
export class AppendQueue {
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Files known to end with a complete line, so appends need not look first. */
  private readonly whole = new Set<string>();

  /** Appends values as JSON lines after every earlier task on the same path; resolves to the bytes written. */
  append(path: string, values: readonly unknown[]): Promise<number> {
    return this.exclusive(path, () => this.write(path, values));
  }

  /** Runs a task after every earlier task with the same key, and before any later one. */
  exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(task);
    const settled = next.catch(() => {});
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return next;
  }

  /** Waits for every pending task with the key, or for all of them. */
  async flush(key?: string): Promise<void> {
    if (key) await this.queues.get(key);
    else await Promise.all(this.queues.values());
  }

  /**
   * Appends values as JSON lines now, outside any queue (callers hold the file's turn). With
   * `create: false` a missing file is an ENOENT error rather than a new file without a beginning.
   * A few records are one write; a long one (a 50 MB answer) goes in slices, never whole in memory.
   */
  async write(path: string, values: readonly unknown[], { create = true } = {}): Promise<number> {
    let bytes = 0;
    try {
      const freshLine = !this.whole.has(path) && (await endsMidLine(path));
      const handle = await fs.open(path, create ? 'a' : constants.O_WRONLY | constants.O_APPEND, 0o600);
      try {
        for (const slice of lineSlices(values, freshLine)) {
          for (let at = 0; at < slice.length;) at += (await handle.write(slice, at)).bytesWritten;
          bytes += slice.length;
        }
      } finally {
        await handle.close();
      }
    } catch (error) {
      // A failed write (a full disk) may have left part of a line behind: look again next time.
      this.whole.delete(path);
      throw asWriteError(error, path);
    }
    this.whole.add(path);
    return bytes;
  }
}

/** Values as JSON lines, in buffers of about WRITE_SLICE bytes; `freshLine`: a newline first. */
function* lineSlices(values: readonly unknown[], freshLine: boolean): Generator<Buffer> {
  let pending: string[] = freshLine ? ['\n'] : [];
  let size = pending.length;
  function* lines() {
    for (const value of values) {
      yield* jsonPieces(value);
      yield '\n';
    }
  }
  for (const piece of lines()) {
    pending.push(piece);
    size += piece.length;
    if (size < WRITE_SLICE) continue;
    yield Buffer.from(pending.join(''));
    [pending, size] = [[], 0];
  }
  if (pending.length) yield Buffer.from(pending.join(''));
}
