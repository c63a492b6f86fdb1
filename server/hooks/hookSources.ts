// Where hooks come from, as Codex looks for them: next to the user's config ($THREADLINE_HOME's
// config.toml `[hooks]` and hooks.json), and next to a project's (`.threadline/` and `.codex/` of the
// cwd and the folders above it up to the repository root, as project MCP servers are found). A
// project's hooks are workspace files, so they are listed here but run only once trusted (hookTrust.ts).
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { BrokenConfigFile, isPlainTable, readTomlFile } from '../config/tomlFile';
import { PROJECT_CONFIG_FOLDERS, projectFolders } from '../mcp/projectServers';
import { disabledKeys, hooksFromTable, type HookDefinition, type HookFileReading } from './hookConfig';

export interface HookInventory extends HookFileReading {
  /** Keys of hooks the user turned off (`[hooks.state]`). */
  disabled: Set<string>;
}

export async function discoverHooks(home: string, cwd: string | null): Promise<HookInventory> {
  const all: HookFileReading = { hooks: [], warnings: [], errors: [] };
  const add = (reading: HookFileReading) => {
    all.hooks.push(...reading.hooks);
    all.warnings.push(...reading.warnings);
    all.errors.push(...reading.errors);
  };
  const user = await readFolder(home, 'user', 0, add);
  if (cwd !== null) {
    for (const folder of await projectFolders(cwd)) {
      for (const dot of PROJECT_CONFIG_FOLDERS)
        await readFolder(join(folder, dot), 'project', all.hooks.length, add);
    }
  }
  return { ...all, disabled: disabledKeys(user) };
}

/** Reads one config folder's hooks (config.toml's table, then hooks.json); returns config.toml's. */
async function readFolder(
  folder: string,
  source: HookDefinition['source'],
  firstOrder: number,
  add: (reading: HookFileReading) => void,
): Promise<unknown> {
  const tomlFile = join(folder, 'config.toml');
  let inline: unknown;
  try {
    inline = (await readTomlFile(tomlFile)).table.hooks;
  } catch (error) {
    if (!(error instanceof BrokenConfigFile)) throw error;
    add({ hooks: [], warnings: [], errors: [{ path: tomlFile, message: error.message }] });
  }
  const fromToml = hooksFromTable(inline, tomlFile, source, firstOrder);
  add(fromToml);
  const jsonFile = join(folder, 'hooks.json');
  const json = await readHooksJson(jsonFile);
  if ('error' in json) add({ hooks: [], warnings: [], errors: [{ path: jsonFile, message: json.error }] });
  else if (json.hooks !== undefined) {
    const reading = hooksFromTable(json.hooks, jsonFile, source, firstOrder + fromToml.hooks.length);
    if (inline !== undefined)
      reading.warnings.push(`${folder} defines hooks in both config.toml and hooks.json; both are used`);
    add(reading);
  }
  return inline;
}

async function readHooksJson(file: string): Promise<{ hooks?: unknown } | { error: string }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? {} : { error: `cannot be read (${code})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Never the parser's excerpt: the file may hold a secret.
    return { error: 'is not valid JSON; its hooks are left out' };
  }
  if (!isPlainTable(value)) return { error: 'must be a JSON object with a `hooks` object' };
  const unknown = Object.keys(value).filter((key) => key !== 'hooks' && key !== 'description');
  if (unknown.length > 0)
    return {
      error: `has unknown fields (${unknown.join(', ')}); only "description" and "hooks" are allowed`,
    };
  return { hooks: value.hooks };
}
