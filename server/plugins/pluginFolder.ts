// What a plugin folder holds:
//   .codex-plugin/plugin.json   {"name", "version", "description", "keywords", "interface": {...}}
//   skills/<skill>/SKILL.md     skills, as in any skills folder
//   .app.json                   {"apps": {"<id>": {"name", "description", "mcp_server", ...}}}
//   .mcp.json                   {"mcpServers": {"<name>": {"command", "args", "env"} | {"url"}}}
// Every file is optional; a file that does not parse is named in the error, and the plugin is
// not installed with it.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { appDefinition, isTable, type AppDefinition } from '../apps/appConfig';
import type { SkillRoot } from '../skills/skillScan';

export interface PluginManifest {
  name: string | null;
  version: string | null;
  description: string | null;
  keywords: string[];
  interface: Record<string, unknown> | null;
}

export interface PluginParts {
  manifest: PluginManifest;
  apps: AppDefinition[];
  /** The MCP server definitions, by name, as the plugin wrote them. */
  mcpServers: Record<string, Record<string, unknown>>;
}

export class PluginFolderError extends Error {}

const MAX_JSON_BYTES = 1024 * 1024;

export async function readPluginFolder(dir: string, displayName: string): Promise<PluginParts> {
  const manifest = (await readJson(join(dir, '.codex-plugin', 'plugin.json'))) ?? {};
  const appsFile = (await readJson(join(dir, '.app.json'))) ?? {};
  const mcpFile = (await readJson(join(dir, '.mcp.json'))) ?? {};
  const apps = isTable(appsFile.apps) ? appsFile.apps : {};
  const servers = isTable(mcpFile.mcpServers) ? mcpFile.mcpServers : {};
  return {
    manifest: {
      name: text(manifest.name),
      version: text(manifest.version),
      description: text(manifest.description),
      keywords: Array.isArray(manifest.keywords)
        ? manifest.keywords.filter((k): k is string => typeof k === 'string')
        : [],
      interface: isTable(manifest.interface) ? manifest.interface : null,
    },
    apps: Object.entries(apps)
      .filter(([, app]) => isTable(app))
      .map(([id, app]) => appDefinition(id, app as Record<string, unknown>, displayName)),
    mcpServers: Object.fromEntries(
      Object.entries(servers).filter((entry): entry is [string, Record<string, unknown>] =>
        isTable(entry[1]),
      ),
    ),
  };
}

/** The plugin's skills folder, as a root whose skills belong to the plugin and stay inside it. */
export async function pluginSkillRoot(dir: string, pluginId: string): Promise<SkillRoot> {
  const real = await fs.realpath(dir).catch(() => dir);
  return { path: join(dir, 'skills'), scope: 'user', pluginId, confineTo: real };
}

async function readJson(path: string): Promise<Record<string, unknown> | null> {
  const stat = await fs.lstat(path).catch(() => null);
  if (!stat) return null;
  if (!stat.isFile()) throw new PluginFolderError(`${path}: not a file`);
  if (stat.size > MAX_JSON_BYTES) throw new PluginFolderError(`${path}: larger than 1 MiB`);
  let value: unknown;
  try {
    value = JSON.parse(await fs.readFile(path, 'utf8'));
  } catch (error) {
    throw new PluginFolderError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  if (!isTable(value)) throw new PluginFolderError(`${path}: must hold a JSON object`);
  return value;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
