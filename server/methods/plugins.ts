// plugin/list, plugin/read, plugin/install and plugin/uninstall over local marketplaces. Installing
// or removing a plugin changes the skills and apps clients see, so they are told (skills/changed,
// app/list/updated).
import { promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import type { Static } from '@sinclair/typebox';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type {
  PluginInterface,
  PluginMarketplaceEntry,
  PluginReadParams,
  PluginSummary,
} from '../protocol/pluginMethods';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { pluginServers } from '../mcp/pluginServers';
import { announceApps } from './apps';
import { disabledSkillPaths } from '../skills/skillConfig';
import { scanRoot } from '../skills/skillScan';
import {
  MarketplaceError,
  readMarketplace,
  type Marketplace,
  type MarketplacePlugin,
} from '../plugins/marketplace';
import { knownMarketplaces } from '../plugins/marketplaceCatalog';
import {
  PluginFolderError,
  pluginSkillRoot,
  readPluginFolder,
  type PluginParts,
} from '../plugins/pluginFolder';
import { entryOf, noteInSnapshot } from '../plugins/pluginSnapshot';
import { PluginInstallError, pluginId, type InstalledPlugin } from '../plugins/pluginStore';

type Target = Static<typeof PluginReadParams>;

export function pluginHandlers(services: Services): HandlerTable {
  const { plugins } = services;

  /** The marketplace and plugin a read or install names; only local marketplace files exist here. */
  async function locate(target: Target): Promise<{ marketplace: Marketplace; plugin: MarketplacePlugin }> {
    if (target.remoteMarketplaceName) {
      throw invalidRequest('remote marketplaces are not offered by Threadline; give a local marketplacePath');
    }
    if (!target.marketplacePath)
      throw invalidParams('Invalid params: marketplacePath: the marketplace file is required');
    let marketplace: Marketplace;
    try {
      marketplace = await readMarketplace(resolve(target.marketplacePath));
    } catch (error) {
      if (error instanceof MarketplaceError) {
        throw invalidParams(`Invalid params: marketplacePath: ${target.marketplacePath}: ${error.message}`);
      }
      throw error;
    }
    const plugin = marketplace.plugins.find((p) => p.name === target.pluginName);
    if (!plugin) {
      throw invalidParams(
        `Invalid params: pluginName: ${marketplace.name} has no plugin ${target.pluginName}`,
      );
    }
    return { marketplace, plugin };
  }

  function announce(peer: RequestContext['peer']) {
    services.skills.invalidate();
    setImmediate(() => peer.notify('skills/changed', {}));
    announceApps(services, peer);
  }

  return {
    'plugin/list': async (params: ParamsOf<'plugin/list'>): Promise<ResultOf<'plugin/list'>> => {
      const installed = new Map((await plugins.installed()).map((p) => [p.id, p]));
      const known = await knownMarketplaces(services.home, params.cwds ?? []);
      return {
        marketplaces: await Promise.all(
          known.marketplaces.map((marketplace) =>
            marketplaceEntry(marketplace, marketplace.plugins, installed),
          ),
        ),
        marketplaceLoadErrors: known.errors,
        featuredPluginIds: [],
      };
    },

    'plugin/read': async (params: ParamsOf<'plugin/read'>): Promise<ResultOf<'plugin/read'>> => {
      const { marketplace, plugin } = await locate(params);
      const id = pluginId(plugin.name, marketplace.name);
      const copy = await plugins.find(id);
      const parts = await partsOf(plugin, copy);
      if (!parts) throw invalidParams(`Invalid params: pluginName: ${plugin.name}'s files cannot be read`);
      const dir = copy?.dir ?? plugin.path;
      const found = await scanRoot(await pluginSkillRoot(dir, id));
      const disabled = await disabledSkillPaths(services.home);
      return {
        plugin: {
          summary: summary(plugin, marketplace, copy, parts),
          marketplaceName: marketplace.name,
          marketplacePath: marketplace.path,
          description: parts.manifest.description ?? plugin.description,
          skills: found.skills.map((skill) => ({
            name: skill.name,
            description: skill.description,
            shortDescription: skill.shortDescription,
            interface: skill.interface,
            path: skill.path,
            enabled: copy !== undefined && !disabled.has(skill.path),
          })),
          apps: parts.apps.map((app) => ({
            id: app.id,
            name: app.name,
            description: app.description,
            installUrl: null,
            category: null,
          })),
          mcpServers: Object.keys(parts.mcpServers),
          hooks: [],
          appTemplates: [],
        },
      };
    },

    'plugin/install': async (
      params: ParamsOf<'plugin/install'>,
      { peer }: RequestContext,
    ): Promise<ResultOf<'plugin/install'>> => {
      const { marketplace, plugin } = await locate(params);
      try {
        const { installed, linksLeftOut } = await plugins.install(marketplace, plugin);
        await noteInSnapshot(services.home, installed.id, await entryOf(installed));
        const leftOut = linksLeftOut.length ? ` (links left out: ${linksLeftOut.join(', ')})` : '';
        services.log.info(`installed plugin ${installed.id} from ${plugin.path}${leftOut}`);
      } catch (error) {
        if (error instanceof PluginFolderError || error instanceof PluginInstallError) {
          throw invalidRequest(`cannot install ${plugin.name}: ${error.message}`);
        }
        throw error;
      }
      announce(peer);
      return { authPolicy: 'ON_USE', appsNeedingAuth: [] };
    },

    'plugin/uninstall': async (
      params: ParamsOf<'plugin/uninstall'>,
      { peer }: RequestContext,
    ): Promise<ResultOf<'plugin/uninstall'>> => {
      const leaving = (await plugins.installed()).filter((plugin) => plugin.id === params.pluginId);
      if (!(await plugins.uninstall(params.pluginId))) {
        throw invalidParams(`Invalid params: pluginId: ${params.pluginId} is not installed`);
      }
      await noteInSnapshot(services.home, params.pluginId, null);
      await services.mcp.forget(pluginServers(leaving, services.log));
      services.log.info(`uninstalled plugin ${params.pluginId}`);
      announce(peer);
      return {};
    },
  };
}

/** A marketplace as plugin/list and plugin/installed show it, with these of its plugins. */
export async function marketplaceEntry(
  marketplace: Marketplace,
  shown: MarketplacePlugin[],
  installed: Map<string, InstalledPlugin>,
): Promise<Static<typeof PluginMarketplaceEntry>> {
  return {
    name: marketplace.name,
    path: marketplace.path,
    interface: marketplace.displayName ? { displayName: marketplace.displayName } : null,
    plugins: await Promise.all(
      shown.map(async (plugin) => {
        const copy = installed.get(pluginId(plugin.name, marketplace.name));
        return summary(plugin, marketplace, copy, await partsOf(plugin, copy));
      }),
    ),
  };
}

/** The installed copy's parts, else the source folder's; null when the files do not parse. */
async function partsOf(
  plugin: MarketplacePlugin,
  copy: InstalledPlugin | undefined,
): Promise<PluginParts | null> {
  if (copy) return copy.parts;
  if (!(await fs.stat(plugin.path).catch(() => null))?.isDirectory()) return null;
  return readPluginFolder(plugin.path, plugin.name).catch(() => null);
}

function summary(
  plugin: MarketplacePlugin,
  marketplace: Marketplace,
  copy: InstalledPlugin | undefined,
  parts: PluginParts | null,
): Static<typeof PluginSummary> {
  return {
    id: pluginId(plugin.name, marketplace.name),
    name: plugin.name,
    source: { type: 'local', path: plugin.path },
    installed: copy !== undefined,
    enabled: copy !== undefined,
    installPolicy: parts ? 'AVAILABLE' : 'NOT_AVAILABLE',
    authPolicy: 'ON_USE',
    interface: parts?.manifest.interface ? pluginInterface(parts.manifest.interface) : null,
    keywords: parts?.manifest.keywords ?? [],
    localVersion: copy ? copy.parts.manifest.version : null,
  };
}

function pluginInterface(table: Record<string, unknown>): Static<typeof PluginInterface> {
  const text = (key: string) => (typeof table[key] === 'string' ? (table[key] as string) : null);
  const list = (key: string) =>
    Array.isArray(table[key])
      ? (table[key] as unknown[]).filter((v): v is string => typeof v === 'string')
      : [];
  return {
    displayName: text('displayName'),
    shortDescription: text('shortDescription'),
    longDescription: text('longDescription'),
    developerName: text('developerName'),
    category: text('category'),
    brandColor: text('brandColor'),
    websiteUrl: text('websiteUrl'),
    capabilities: list('capabilities'),
    screenshots: [],
    screenshotUrls: [],
  };
}
