// Reading rollouts: lines are split at the byte level and parsed one at a time, so a huge thread
// never becomes one huge string. Lines that cannot be parsed are skipped and logged, never thrown.
import { closeSync, fstatSync, openSync, readSync, promises as fs } from 'node:fs';
import type { Logger } from '../log';
import { parseRecord, type RolloutRecord } from './records';

export interface RolloutContents {
  records: RolloutRecord[];
  /** The file's size as read, so the index can tell later whether it grew behind its back. */
  bytes: number;
}

const CHUNK = 1 << 20;

/** Files up to this size may be read synchronously: a few milliseconds at most. */
export const SMALL_ROLLOUT = 256 * 1024;

/** Turns chunks of a file into records, carrying a line that spans chunks over to the next. */
class LineParser<T = RolloutRecord> {
  readonly records: T[] = [];
  bytes = 0;
  /** Set when `stop` said a record was the last one wanted. */
  stopped = false;
  private pending: Buffer[] = [];
  private lineNumber = 0;

  constructor(
    private readonly path: string,
    private readonly log: Logger,
    private readonly parse: (line: string) => T | undefined,
    private readonly stop: (record: T) => boolean = () => false,
  ) {}

  /** Takes the lines a chunk completes; the chunk's memory may be reused afterwards. */
  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      const line = this.pending.length
        ? Buffer.concat([...this.pending, chunk.subarray(start, newline)]).toString('utf8')
        : chunk.toString('utf8', start, newline);
      this.pending = [];
      this.take(line, false);
      start = newline + 1;
    }
    if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)));
  }

  end(): { records: T[]; bytes: number } {
    if (this.pending.length && !this.stopped) this.take(Buffer.concat(this.pending).toString('utf8'), true);
    return { records: this.records, bytes: this.bytes };
  }

  private take(line: string, last: boolean): void {
    this.lineNumber++;
    if (this.stopped || line.trim() === '') return;
    const record = this.parse(line);
    if (record) {
      this.records.push(record);
      this.stopped = this.stop(record);
    } else {
      const truncated = last ? ' (truncated last line)' : '';
      this.log.warn(`skipping unreadable line ${this.lineNumber} of ${this.path}${truncated}`);
    }
  }
}

/** Reads a rollout a chunk at a time; a missing file throws ENOENT. */
export function readRollout(path: string, log: Logger): Promise<RolloutContents> {
  return readLines(path, log, parseRecord);
}

export interface LineReading<T> {
  records: T[];
  /** Bytes read: the file's size when it was read to the end. */
  bytes: number;
  /** The file's size and modification time when it was opened. */
  size: number;
  mtimeMs: number;
}

/**
 * Reads a file of JSON lines a chunk at a time, parsing each line (lines `parse` rejects are
 * logged and skipped); stops after the chunk in which `stop` accepts a record. A missing file
 * throws ENOENT.
 */
export async function readLines<T>(
  path: string,
  log: Logger,
  parse: (line: string) => T | undefined,
  { stop, chunkBytes = CHUNK }: { stop?: (record: T) => boolean; chunkBytes?: number } = {},
): Promise<LineReading<T>> {
  const parser = new LineParser(path, log, parse, stop);
  const handle = await fs.open(path, 'r');
  let info;
  try {
    info = await handle.stat();
    // One byte more than the file holds, so a small file's first read is short: it ended.
    const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, info.size + 1));
    for (let more = true; more && !parser.stopped;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, parser.bytes);
      more = bytesRead === chunk.length;
      parser.push(chunk.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return { ...parser.end(), size: info.size, mtimeMs: info.mtimeMs };
}

/**
 * Reads a small rollout synchronously, several times faster than the async path when thousands are
 * read in a row (an index rebuild); undefined when the file is too big for that.
 */
export function readSmallRolloutSync(path: string, log: Logger): RolloutContents | undefined {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > SMALL_ROLLOUT) return undefined;
    const parser = new LineParser(path, log, parseRecord);
    const buffer = Buffer.allocUnsafe(size + 1);
    for (let more = true; more;) {
      const bytesRead = readSync(fd, buffer, 0, buffer.length, parser.bytes);
      more = bytesRead === buffer.length;
      parser.push(buffer.subarray(0, bytesRead));
    }
    return parser.end();
  } finally {
    closeSync(fd);
  }
}
