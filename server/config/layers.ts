// The config layers, lowest precedence first: built-in defaults, $THREADLINE_HOME/config.toml, the
// `.threadline/config.toml` of a trusted project (from its root down to the folder asked about),
// then `-c key=value` flags. Per-thread and per-turn overrides come later, in settings.ts.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ConfigLayerMetadata, ConfigLayerSource } from '../protocol/configMethods';
import { BrokenConfigFile, isPlainTable, readTomlFile, versionOf, type Table } from './tomlFile';

export interface Layer {
  source: ConfigLayerSource;
  version: string;
  table: Table;
  /** Why the layer does not count (an untrusted project), or null. */
  disabledReason: string | null;
}

/** What new threads start with when no layer says otherwise, in config.toml's key names. */
export const BUILT_IN_TABLE: Readonly<Table> = {
  model: 'gpt-5.1-codex',
  model_provider: 'openai',
  approval_policy: 'on-request',
  sandbox_mode: 'workspace-write',
};

// A project's files are workspace files the agent itself may write: they must not widen what the
// agent may do, send keys elsewhere, leak the environment, or declare themselves trusted.
const PROJECT_FORBIDDEN_KEYS = [
  'approval_policy',
  'sandbox_mode',
  'sandbox_workspace_write',
  'model_providers',
  'shell_environment_policy',
  'mcp_servers',
  'projects',
  'codex_history',
  // The program every command runs in.
  'windows',
];

export const userConfigFile = (home: string) => join(home, 'config.toml');

export async function readLayers(home: string, flags: Table, cwd: string | null): Promise<Layer[]> {
  const user = await readTomlFile(userConfigFile(home));
  const layers: Layer[] = [
    {
      source: { type: 'packagedDefaults', file: resolve(process.argv[1] ?? process.execPath) },
      version: versionOf(JSON.stringify(BUILT_IN_TABLE)),
      table: { ...BUILT_IN_TABLE },
      disabledReason: null,
    },
    {
      source: { type: 'user', file: userConfigFile(home) },
      version: user.version,
      table: user.table,
      disabledReason: null,
    },
  ];
  if (cwd !== null) layers.push(...(await projectLayers(user.table, cwd)));
  if (Object.keys(flags).length > 0) {
    layers.push({
      source: { type: 'sessionFlags' },
      version: versionOf(JSON.stringify(flags)),
      table: flags,
      disabledReason: null,
    });
  }
  return layers;
}

async function projectLayers(userTable: Table, cwd: string): Promise<Layer[]> {
  const folders = foldersUpToRoot(realPath(resolve(cwd)));
  const trusted = folders.some((folder) => isTrusted(userTable, folder));
  const layers: Layer[] = [];
  for (const folder of folders.reverse()) {
    const dotFolder = join(folder, '.threadline');
    const file = join(dotFolder, 'config.toml');
    if (!existsSync(file)) continue;
    const source: ConfigLayerSource = { type: 'project', dotCodexFolder: dotFolder };
    if (!trusted) {
      const reason = `${folder} is not a trusted project ([projects."${folder}"] trust_level = "trusted" in config.toml)`;
      layers.push({ source, version: versionOf(null), table: {}, disabledReason: reason });
      continue;
    }
    let read: Awaited<ReturnType<typeof readTomlFile>>;
    try {
      read = await readTomlFile(file);
    } catch (error) {
      // A broken file in a repository leaves that layer out, not the user's own settings.
      if (!(error instanceof BrokenConfigFile)) throw error;
      layers.push({ source, version: versionOf(null), table: {}, disabledReason: error.message });
      continue;
    }
    const { table, version } = read;
    for (const key of PROJECT_FORBIDDEN_KEYS) delete table[key];
    layers.push({ source, version, table, disabledReason: null });
  }
  return layers;
}

/** cwd and its parents up to the repository root (the folder holding .git), or cwd alone outside one. */
function foldersUpToRoot(cwd: string): string[] {
  const folders: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    folders.push(dir);
    if (existsSync(join(dir, '.git'))) return folders;
    if (dirname(dir) === dir) return [cwd];
  }
}

function isTrusted(userTable: Table, folder: string): boolean {
  const projects = userTable.projects;
  if (!isPlainTable(projects)) return false;
  return Object.entries(projects).some(
    ([path, entry]) =>
      isPlainTable(entry) && entry.trust_level === 'trusted' && realPath(resolve(path)) === folder,
  );
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export interface Merged {
  config: Table;
  /** Each leaf key path (dotted) to the layer its value comes from. */
  origins: Record<string, ConfigLayerMetadata>;
}

/** Later layers win; tables merge key by key, anything else is replaced whole. */
export function mergeLayers(layers: Layer[]): Merged {
  const config: Table = {};
  const origins: Record<string, ConfigLayerMetadata> = {};
  for (const layer of layers) {
    if (layer.disabledReason !== null) continue;
    mergeInto(config, layer.table, [], { name: layer.source, version: layer.version }, origins);
  }
  return { config, origins };
}

function mergeInto(
  target: Table,
  source: Table,
  path: string[],
  origin: ConfigLayerMetadata,
  origins: Record<string, ConfigLayerMetadata>,
): void {
  for (const [key, value] of Object.entries(source)) {
    const keyPath = [...path, key];
    if (isPlainTable(value)) {
      const existing = target[key];
      const into = isPlainTable(existing) ? existing : {};
      if (!isPlainTable(existing)) forgetOrigins(origins, keyPath);
      target[key] = into;
      mergeInto(into, value, keyPath, origin, origins);
    } else {
      forgetOrigins(origins, keyPath);
      target[key] = value;
      origins[keyPath.join('.')] = origin;
    }
  }
}

function forgetOrigins(origins: Record<string, ConfigLayerMetadata>, keyPath: string[]): void {
  const prefix = keyPath.join('.');
  for (const key of Object.keys(origins))
    if (key === prefix || key.startsWith(`${prefix}.`)) delete origins[key];
}
