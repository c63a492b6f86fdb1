// Reading one TOML file of the config: its table, the version writers compare against, and a clear
// error when the file is broken (never the parser's excerpt, which may quote a secret).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { isTable } from './providers';

export type Table = Record<string, unknown>;

/** A config file that exists but cannot be used: reads report it, writes refuse to touch it. */
export class BrokenConfigFile extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file} ${reason}; fix or remove it by hand (Threadline will not overwrite it)`);
  }
}

export interface TomlFile {
  /** The file's text, or null when it does not exist. */
  text: string | null;
  table: Table;
  version: string;
}

/** The version of a file's content, as config/read reports it and expectedVersion names it. */
export function versionOf(text: string | null): string {
  return `sha256:${createHash('sha256')
    .update(text ?? '')
    .digest('hex')}`;
}

export async function readTomlFile(file: string): Promise<TomlFile> {
  let text: string | null = null;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new BrokenConfigFile(file, `cannot be read (${code})`);
  }
  return { text, table: text === null ? {} : await parseToml(file, text), version: versionOf(text) };
}

export async function parseToml(file: string, text: string): Promise<Table> {
  const { parse } = await import('smol-toml');
  try {
    return parse(text) as Table;
  } catch (error) {
    const { message, line, column } = error as Error & { line?: number; column?: number };
    const where = line ? ` at line ${line}, column ${column}` : '';
    throw new BrokenConfigFile(file, `is not valid TOML${where} (${message.split('\n')[0]})`);
  }
}

/** A TOML table, not an array or a date (smol-toml's dates are objects). */
export const isPlainTable = (value: unknown): value is Table => isTable(value) && !(value instanceof Date);
