// The MCP servers installed plugins define in their `.mcp.json`. A plugin comes from somebody else's
// marketplace, so its servers are treated like a project's: each starts only once the user trusted
// that exact definition (the same one-time question, naming the plugin's file and what it runs), and
// a stdio server runs in the plugin's folder unless it says otherwise.
import { join } from 'node:path';
import { mcpServersFrom } from '../config/mcpServers';
import type { Logger } from '../log';
import type { InstalledPlugin } from '../plugins/pluginStore';
import { definedServer, type ProjectServer } from './projectServers';

export function pluginServers(plugins: InstalledPlugin[], log: Logger): ProjectServer[] {
  return plugins.flatMap((plugin) =>
    mcpServersFrom(plugin.parts.mcpServers, log).map((config) =>
      definedServer(config, join(plugin.dir, '.mcp.json'), plugin.dir),
    ),
  );
}
