// The apps a client can list and a prompt can mention: config.toml's `[apps.<id>]` and those of
// installed plugins (config.toml wins on the same id: it is the user's own word). Read afresh each
// time: the file is small, and an edit shows without a reload.
import type { AppInfo } from '../protocol/appMethods';
import { readAppsConfig, type AppDefaults, type AppDefinition } from './appConfig';

export interface LocalApp {
  info: AppInfo;
  mcpServer: string | null;
}

export interface PluginContributions {
  apps: AppDefinition[];
  /** MCP server names the plugins define. */
  mcpServers: string[];
}

export class AppDirectory {
  constructor(
    private readonly home: string,
    private readonly fromPlugins: () => Promise<PluginContributions>,
  ) {}

  /** Every app's definition (config.toml's over a plugin's of the same id) and the defaults. */
  async definitions(): Promise<{ apps: AppDefinition[]; defaults: AppDefaults; servers: Set<string> }> {
    const config = await readAppsConfig(this.home);
    const plugins = await this.fromPlugins();
    const byId = new Map<string, AppDefinition>();
    for (const app of [...plugins.apps, ...config.apps]) byId.set(app.id, app);
    const apps = [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    return {
      apps,
      defaults: config.defaults,
      servers: new Set([...config.mcpServers, ...plugins.mcpServers]),
    };
  }

  async list(): Promise<LocalApp[]> {
    const { apps, defaults, servers } = await this.definitions();
    return apps.map((app) => ({
      mcpServer: app.mcpServer,
      info: {
        id: app.id,
        name: app.name,
        description: app.description,
        logoUrl: null,
        logoUrlDark: null,
        distributionChannel: null,
        branding: null,
        appMetadata: null,
        labels: null,
        installUrl: null,
        isAccessible: app.mcpServer !== null && servers.has(app.mcpServer),
        isEnabled: defaults.enabled && app.enabled,
        pluginDisplayNames: app.pluginDisplayName ? [app.pluginDisplayName] : [],
      },
    }));
  }
}
