// Which skills the user turned off, kept in config.toml as Codex does:
//   [[skills.config]]
//   path = "/home/me/.agents/skills/lint/SKILL.md"
//   enabled = false
// The file is the user's: an edit touches only the `[[skills.config]]` entry of the one path, keeps
// every other line and comment, and is checked by parsing the result before it replaces the file.
// A file we cannot edit that way is left alone and the request fails.
import { promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { withFileLock } from '../fs/lockFile';
import { renameRetrying } from '../fs/renameRetrying';

export class SkillConfigError extends Error {}

type Table = Record<string, unknown>;

const CONFIG = 'config.toml';
const ENTRY_HEADER = /^\s*\[\[\s*skills\s*\.\s*config\s*\]\]\s*(#.*)?$/;
const ANY_HEADER = /^\s*\[/;

/** The paths of skills config.toml turns off; an unreadable file turns nothing off. */
export async function disabledSkillPaths(home: string): Promise<Set<string>> {
  const table = await readTable(home).catch(() => null);
  const disabled = new Set<string>();
  for (const entry of entriesOf(table)) {
    if (entry.enabled === false) disabled.add(entry.path);
    else disabled.delete(entry.path);
  }
  return disabled;
}

/** Records whether the skill at `path` (absolute) is on; only an `off` needs an entry. */
export async function writeSkillEnabled(home: string, path: string, enabled: boolean): Promise<void> {
  const file = join(home, CONFIG);
  await fs.mkdir(home, { recursive: true });
  await withFileLock(`${file}.lock`, async () => {
    const before = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw new SkillConfigError(`cannot read config.toml (${error.code})`);
    });
    const { parse, stringify } = await import('smol-toml');
    let old: Table;
    try {
      old = parse(before) as Table;
    } catch {
      throw new SkillConfigError('config.toml is not valid TOML; fix it before changing skills');
    }
    let lines = withoutEntriesFor(before.split('\n'), path, parse);
    if (!enabled) {
      const entry = stringify({ skills: { config: [{ path, enabled: false }] } });
      if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
      lines = [...lines, ...entry.trim().split('\n'), ''];
    }
    const after = lines.join('\n');
    let written: Table;
    try {
      written = parse(after) as Table;
    } catch {
      written = {};
    }
    if (!sameOtherwise(old, written, path, enabled)) {
      throw new SkillConfigError(
        'config.toml writes `skills.config` in a form Threadline does not edit (use `[[skills.config]]` entries); it was left unchanged',
      );
    }
    await replaceFile(file, after);
  });
}

/** Drops the `[[skills.config]]` blocks whose path is `path`. */
function withoutEntriesFor(lines: string[], path: string, parse: (text: string) => unknown): string[] {
  const kept: string[] = [];
  for (let i = 0; i < lines.length;) {
    if (!ENTRY_HEADER.test(lines[i]!)) {
      kept.push(lines[i++]!);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !ANY_HEADER.test(lines[end]!)) end++;
    const block = lines.slice(i, end);
    let entryPath: unknown;
    try {
      entryPath = ((parse(block.join('\n')) as Table).skills as { config: Table[] }).config[0]?.path;
    } catch {
      entryPath = undefined;
    }
    if (typeof entryPath !== 'string' || resolve(entryPath) !== path) kept.push(...block);
    i = end;
  }
  return kept;
}

/** The edit did what it should: this path's state is as asked, everything else as before. */
function sameOtherwise(old: Table, written: Table, path: string, enabled: boolean): boolean {
  const strip = (table: Table) => {
    const skills = isTable(table.skills) ? table.skills : {};
    const others = entriesOf(table).filter((entry) => entry.path !== path);
    return JSON.stringify({ ...table, skills: { ...skills, config: others } });
  };
  const state = entriesOf(written).filter((entry) => entry.path === path);
  const nowEnabled = state.length === 0 || state[state.length - 1]!.enabled !== false;
  return nowEnabled === enabled && strip(old) === strip(written);
}

function entriesOf(table: Table | null): { path: string; enabled: unknown }[] {
  const skills = table?.skills;
  const config = isTable(skills) ? skills.config : undefined;
  if (!Array.isArray(config)) return [];
  return config
    .filter((entry): entry is Table => isTable(entry) && typeof entry.path === 'string')
    .map((entry) => ({ path: resolve(entry.path as string), enabled: entry.enabled }));
}

async function readTable(home: string): Promise<Table> {
  const text = await fs.readFile(join(home, CONFIG), 'utf8');
  const { parse } = await import('smol-toml');
  return parse(text) as Table;
}

/** Written beside the file and renamed over it, so a crash leaves the old file or the new one. */
async function replaceFile(file: string, text: string): Promise<void> {
  const mode = await fs.stat(file).then(
    (stat) => stat.mode & 0o777,
    () => 0o600,
  );
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await fs.writeFile(temp, text, { mode, flag: 'wx' });
    await renameRetrying(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw new SkillConfigError(`cannot write config.toml (${(error as NodeJS.ErrnoException).code})`);
  }
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
