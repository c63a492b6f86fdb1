// The apps config.toml defines, as the spec's config example shapes them:
//   [apps.issues]
//   name = "Issue tracker"
//   description = "Our tracker's tickets"
//   mcp_server = "tracker"              # the [mcp_servers.<name>] whose tools the app offers
//   enabled = true
//   default_tools_approval_mode = "prompt"   # auto | prompt | writes | approve
//   default_tools_enabled = true
//   destructive_enabled = false         # tools that say they are destructive are not offered
//   open_world_enabled = false          # nor those that say they reach the open world
//   [apps.issues.tools."tickets/delete"]
//   enabled = false
//   approval_mode = "approve"
// `[apps._default]` holds defaults for every app, not an app (`enabled`, `destructive_enabled`,
// `open_world_enabled`, `default_tools_approval_mode`). Values of the wrong type are ignored with
// the rest of the app kept; an app whose table is not a table is skipped.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

export const APPROVAL_MODES = ['auto', 'prompt', 'writes', 'approve'] as const;
export type AppToolApproval = (typeof APPROVAL_MODES)[number];

export interface AppDefinition {
  id: string;
  name: string;
  description: string | null;
  mcpServer: string | null;
  enabled: boolean;
  defaultToolsApprovalMode: AppToolApproval | null;
  defaultToolsEnabled: boolean | null;
  destructiveEnabled: boolean | null;
  openWorldEnabled: boolean | null;
  tools: Record<string, { enabled: boolean | null; approvalMode: AppToolApproval | null }>;
  /** The installed plugin that brought it, by display name. */
  pluginDisplayName: string | null;
}

/** `[apps._default]`: what holds for every app that does not say otherwise. */
export interface AppDefaults {
  /** false turns every app off. */
  enabled: boolean;
  destructiveEnabled: boolean;
  openWorldEnabled: boolean;
  toolsApprovalMode: AppToolApproval | null;
}

export interface AppsConfig {
  apps: AppDefinition[];
  defaults: AppDefaults;
  /** The names of `[mcp_servers.<name>]` tables. */
  mcpServers: Set<string>;
}

type Table = Record<string, unknown>;

export async function readAppsConfig(home: string): Promise<AppsConfig> {
  let table: Table = {};
  try {
    const text = await fs.readFile(join(home, 'config.toml'), 'utf8');
    const { parse } = await import('smol-toml');
    table = parse(text) as Table;
  } catch {
    // No file, or one that does not parse (reported where config is loaded): no apps.
  }
  const apps = isTable(table.apps) ? table.apps : {};
  const defaults = isTable(apps._default) ? apps._default : {};
  return {
    apps: Object.entries(apps)
      .filter(([id, value]) => id !== '_default' && isTable(value))
      .map(([id, value]) => appDefinition(id, value as Table, null)),
    defaults: {
      enabled: defaults.enabled !== false,
      destructiveEnabled: defaults.destructive_enabled !== false,
      openWorldEnabled: defaults.open_world_enabled !== false,
      toolsApprovalMode: approval(defaults.default_tools_approval_mode),
    },
    mcpServers: new Set(isTable(table.mcp_servers) ? Object.keys(table.mcp_servers) : []),
  };
}

/** One app from its table (config.toml's, or a plugin's `.app.json` entry). */
export function appDefinition(id: string, table: Table, pluginDisplayName: string | null): AppDefinition {
  const tools = isTable(table.tools) ? table.tools : {};
  return {
    id,
    name: text(table.name) ?? id,
    description: text(table.description),
    mcpServer: text(table.mcp_server),
    enabled: table.enabled !== false,
    defaultToolsApprovalMode: approval(table.default_tools_approval_mode),
    defaultToolsEnabled: flag(table.default_tools_enabled),
    destructiveEnabled: flag(table.destructive_enabled),
    openWorldEnabled: flag(table.open_world_enabled),
    tools: Object.fromEntries(
      Object.entries(tools)
        .filter(([, tool]) => isTable(tool))
        .map(([name, tool]) => [
          name,
          { enabled: flag((tool as Table).enabled), approvalMode: approval((tool as Table).approval_mode) },
        ]),
    ),
    pluginDisplayName,
  };
}

function approval(value: unknown): AppToolApproval | null {
  return APPROVAL_MODES.find((mode) => mode === value) ?? null;
}

function flag(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
