// Reading a rollout someone hands us (an exported thread) as untrusted input: a bounded regular
// file, every line a well-formed record (the first the thread's description), every item a valid
// protocol item. Anything else refuses the whole file with the line at fault, so an import is all
// or nothing. What comes out are the records of the turns that remain once the file's rollback and
// revert markers are applied, turns left open closed as interrupted, and the thread's name.
import { promises as fs } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { itemSchemas } from '../protocol/lazySchemas';
import { foldHistory, parseRecord, turnRecordsOf, type RolloutRecord } from './records';
import { HistoryError } from './storeErrors';

/** Larger than any thread a person would hand on; a bigger file is refused before it is read. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

export interface ImportedRollout {
  records: RolloutRecord[];
  name: string | null;
  /** The id the thread had where it was exported (the new thread gets its own). */
  sourceId: string;
}

export async function readImportedRollout(path: string, now = Date.now()): Promise<ImportedRollout> {
  const stat = await fs.stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new HistoryError(`cannot read ${path}: ${error.code ?? error.message}`);
  });
  if (!stat.isFile()) throw new HistoryError(`${path} is not a file`);
  if (stat.size > MAX_IMPORT_BYTES)
    throw new HistoryError(
      `${path} is ${stat.size} bytes: a rollout to import may be at most ${MAX_IMPORT_BYTES} bytes`,
    );
  const text = await readBounded(path, stat.size);
  const records = text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    const record = parseRecord(line);
    if (!record) throw new HistoryError(`line ${index + 1} of ${path} is not a Threadline rollout record`);
    if (record.type === 'item' && !Value.Check(itemSchemas().ThreadItem, record.item))
      throw new HistoryError(`line ${index + 1} of ${path} holds an item that is not a valid thread item`);
    if (record.type === 'session_meta' && index > 0)
      throw new HistoryError(`line ${index + 1} of ${path} describes a second thread`);
    return [record];
  });
  const [first, ...rest] = records;
  if (first?.type !== 'session_meta')
    throw new HistoryError(`${path} is not a Threadline rollout: its first line does not describe a thread`);
  const folded = foldHistory(first.meta, rest);
  const kept = turnRecordsOf(rest, new Set(folded.turns.map((t) => t.id)));
  const closed: RolloutRecord[] = folded.turns
    .filter((turn) => turn.status === 'inProgress')
    .map((turn) => ({
      type: 'turn_completed',
      ts: now,
      turnId: turn.id,
      status: 'interrupted',
      error: null,
    }));
  return { records: [...kept, ...closed], name: folded.name, sourceId: first.meta.id };
}

/** The file's text, read no further than the size it had when looked at (a file still growing is refused). */
async function readBounded(path: string, size: number): Promise<string> {
  const file = await fs.open(path, 'r');
  try {
    const buffer = Buffer.alloc(size + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      ({ bytesRead: read } = await file.read(buffer, length, buffer.length - length, length));
    if (length > size) throw new HistoryError(`${path} changed while it was read: try again`);
    return buffer.toString('utf8', 0, length);
  } finally {
    await file.close();
  }
}
