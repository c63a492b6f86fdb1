// Edits to the user's config.toml, all or nothing: the edits are applied to the parsed file, the
// result is checked, written to a temporary sibling and renamed over the file, so a reader or a
// crash sees the old file or the new one. Writers take turns (one queue in this process, a lock
// file across processes), so concurrent edits neither tear the file nor lose each other. Comments
// and layout survive through toml-patch; a file that does not parse is never rewritten.
import { constants, promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import type { ConfigEdit } from '../protocol/configMethods';
import { writeFileAtomic } from '../tools/applyPatch/atomicFile';
import { parseKeyPath } from './keyPath';
import { isPlainTable, parseToml, versionOf, type Table } from './tomlFile';

/** An edit that cannot be made: answered -32602, naming the key. */
export class InvalidConfigEdit extends Error {}
/** The file changed since the version the client read. */
export class ConfigVersionConflict extends Error {}

export interface WriteOptions {
  expectedVersion: string | null;
  /** Throws InvalidConfigEdit when the edited table is not acceptable (checks.ts). */
  check(table: Table, keyPaths: string[][]): void;
}

const LOCK_STALE_MS = 30_000;
const LOCK_WAIT_MS = 10_000;
let queue: Promise<unknown> = Promise.resolve();

export function writeConfigEdits(file: string, edits: ConfigEdit[], options: WriteOptions): Promise<string> {
  const run = queue.then(() => withLock(file, () => applyEdits(file, edits, options)));
  queue = run.catch(() => {});
  return run;
}

async function applyEdits(file: string, edits: ConfigEdit[], options: WriteOptions): Promise<string> {
  let text: string | null = null;
  let mode: number | undefined;
  try {
    text = await fs.readFile(file, 'utf8');
    mode = (await fs.stat(file)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Refuses a broken file (BrokenConfigFile) before anything is written.
  await parseToml(file, text ?? '');
  if (options.expectedVersion && options.expectedVersion !== versionOf(text)) {
    throw new ConfigVersionConflict(
      `${file} changed since version ${options.expectedVersion}; read it again (now ${versionOf(text)})`,
    );
  }
  const { parse, patch, stringify } = await import('@decimalturn/toml-patch');
  const document = (text === null ? {} : parse(text)) as Table;
  const keyPaths = edits.map((edit) => applyEdit(document, edit));
  let updated: string;
  try {
    updated = text === null ? stringify(document) : patch(text, document);
  } catch (error) {
    throw new InvalidConfigEdit(`the edits cannot be written as TOML: ${(error as Error).message}`);
  }
  // What lands on disk is what the server will read: check the re-parsed result, not the request.
  options.check(await parseToml(file, updated), keyPaths);
  await fs.mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, Buffer.from(updated, 'utf8'), mode ?? 0o600);
  return versionOf(updated);
}

function applyEdit(document: Table, edit: ConfigEdit): string[] {
  const path = parseKeyPath(edit.keyPath);
  if (!path) throw new InvalidConfigEdit(`keyPath "${edit.keyPath}" is not a dotted key path`);
  const name = path.join('.');
  const value = edit.value;
  checkValue(value, name, true);
  let table = document;
  for (const [i, key] of path.slice(0, -1).entries()) {
    const next = table[key];
    if (next === undefined) {
      if (value === null) return path;
      table = table[key] = {};
    } else if (isPlainTable(next)) {
      table = next;
    } else {
      throw new InvalidConfigEdit(`${name}: ${path.slice(0, i + 1).join('.')} is a value, not a table`);
    }
  }
  const last = path[path.length - 1]!;
  const existing = table[last];
  if (value === null) delete table[last];
  else if (edit.mergeStrategy === 'upsert' && isPlainTable(existing) && isPlainTable(value))
    deepMerge(existing, value);
  else table[last] = structuredClone(value);
  return path;
}

/** TOML has no null: only a whole edit's value may be null, meaning "remove the key". */
function checkValue(value: unknown, name: string, top: boolean): void {
  if (value === null) {
    if (top) return;
    throw new InvalidConfigEdit(`${name}: TOML has no null inside a value`);
  }
  if (Array.isArray(value)) value.forEach((entry, i) => checkValue(entry, `${name}[${i}]`, false));
  else if (typeof value === 'object')
    for (const [key, entry] of Object.entries(value)) checkValue(entry, `${name}.${key}`, false);
  else if (typeof value === 'number' && !Number.isFinite(value))
    throw new InvalidConfigEdit(`${name}: not a finite number`);
}

function deepMerge(target: Table, source: Table): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (isPlainTable(existing) && isPlainTable(value)) deepMerge(existing, value);
    else target[key] = structuredClone(value);
  }
}

async function withLock<T>(file: string, body: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await fs.open(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A writer that died holding the lock must not block config writes for good.
      const age = await fs.stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > LOCK_STALE_MS) await fs.unlink(lock).catch(() => {});
      else if (Date.now() > deadline)
        throw new ConfigVersionConflict(`${lock} is held by another writer; try again`);
      else await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
    }
  }
  try {
    return await body();
  } finally {
    await fs.unlink(lock).catch(() => {});
  }
}
