// What a turn's checkpoint holds: for each file it changed, the file before the turn's first change
// to it and after its last one (content hash and mode; null where the file did not exist), and
// notes on what could not be captured.
export interface FileState {
  hash: string;
  mode: number;
}

export interface FileRecord {
  /** The path as items show it (absolute). */
  path: string;
  /** The real file written (symlinks resolved): what is checked and restored. */
  target: string;
  before: FileState | null;
  after: FileState | null;
}

export interface TurnRecord {
  files: FileRecord[];
  notes: string[];
}

export const emptyRecord = (): TurnRecord => ({ files: [], notes: [] });

/** Adds one change to a file: the first `before` of the turn stays, the newest `after` wins. */
export function addChange(record: TurnRecord, change: FileRecord): void {
  const known = record.files.find((file) => file.target === change.target);
  if (known) known.after = change.after;
  else record.files.push({ ...change });
}

/** The files whose content really differs between before and after. */
export function changedFiles(record: TurnRecord): FileRecord[] {
  return record.files.filter((file) => !sameState(file.before, file.after));
}

export function sameState(a: FileState | null, b: FileState | null): boolean {
  return a === null || b === null ? a === b : a.hash === b.hash;
}

/**
 * Several turns undone together (a rollback): each file must hold what the newest of them left
 * and gets back what it held before the oldest. `records` run oldest first.
 */
export function mergeRecords(records: TurnRecord[]): TurnRecord {
  const merged = emptyRecord();
  for (const record of records) {
    for (const file of record.files) addChange(merged, file);
    merged.notes.push(...record.notes);
  }
  return merged;
}

/** Reads a stored record defensively: anything malformed is an error, not a partial revert. */
export function parseRecord(text: string): TurnRecord {
  const value = JSON.parse(text) as TurnRecord;
  if (!Array.isArray(value.files) || !Array.isArray(value.notes)) throw new Error('malformed checkpoint');
  for (const file of value.files) {
    if (typeof file.path !== 'string' || typeof file.target !== 'string')
      throw new Error('malformed checkpoint');
    for (const state of [file.before, file.after]) {
      if (state !== null && (typeof state?.hash !== 'string' || typeof state.mode !== 'number'))
        throw new Error('malformed checkpoint');
    }
  }
  return value;
}
