// plugin/installed (the installed plugins by marketplace), plugin/skill/read (one skill's SKILL.md of
// a marketplace's plugin) and plugin/reconcile (installed copies brought up to date with their
// sources on disk, and what changed reported). The reference's "remote" names are its cloud catalog's;
// here they name the local marketplaces plugin/list shows, which are all Threadline has.
import { promises as fs } from 'node:fs';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { announceApps } from './apps';
import { marketplaceEntry } from './plugins';
import { readMarketplace, type Marketplace, type MarketplacePlugin } from '../plugins/marketplace';
import { knownMarketplaces } from '../plugins/marketplaceCatalog';
import { pluginSkillRoot } from '../plugins/pluginFolder';
import { reconcilePlugins } from '../plugins/pluginReconcile';
import { pluginId, PluginInstallError, realFolder, type InstalledPlugin } from '../plugins/pluginStore';
import { MAX_SKILL_BYTES } from '../skills/skillFile';
import { scanRoot } from '../skills/skillScan';

export function installedPluginHandlers(services: Services): HandlerTable {
  const { plugins, home } = services;

  return {
    'plugin/installed': async (
      params: ParamsOf<'plugin/installed'>,
    ): Promise<ResultOf<'plugin/installed'>> => {
      const installed = await plugins.installed();
      const byId = new Map(installed.map((plugin) => [plugin.id, plugin]));
      const suggested = new Set(params.installSuggestionPluginNames ?? []);
      const known = await knownMarketplaces(home, params.cwds ?? []);
      const result: ResultOf<'plugin/installed'> = { marketplaces: [], marketplaceLoadErrors: known.errors };
      const shownIds = new Set<string>();
      /** An installed plugin its marketplace no longer lists, shown from what its install recorded. */
      const recorded = (plugin: InstalledPlugin): MarketplacePlugin => ({
        name: plugin.name,
        path: plugin.sourcePath,
        description: null,
      });
      for (const marketplace of known.marketplaces) {
        // A name two marketplaces share is shown from the first, as plugin ids are by name.
        if (result.marketplaces.some((entry) => entry.name === marketplace.name)) continue;
        const listed = marketplace.plugins.filter(
          (p) => byId.has(pluginId(p.name, marketplace.name)) || suggested.has(p.name),
        );
        const unlisted = installed
          .filter((p) => p.marketplaceName === marketplace.name)
          .filter((p) => !marketplace.plugins.some((listedPlugin) => listedPlugin.name === p.name))
          .map(recorded);
        const shown = [...listed, ...unlisted];
        if (!shown.length) continue;
        shown.forEach((p) => shownIds.add(pluginId(p.name, marketplace.name)));
        result.marketplaces.push(await marketplaceEntry(marketplace, shown, byId));
      }
      // Installed from a marketplace no longer in sight (another repository's, a removed one).
      const leftOver = installed.filter((plugin) => !shownIds.has(plugin.id));
      for (const name of [...new Set(leftOver.map((plugin) => plugin.marketplaceName))]) {
        const own = leftOver.filter((plugin) => plugin.marketplaceName === name);
        const marketplace: Marketplace = {
          name,
          path: own[0]!.marketplacePath,
          root: own[0]!.marketplacePath,
          displayName: null,
          plugins: own.map(recorded),
        };
        result.marketplaces.push(await marketplaceEntry(marketplace, marketplace.plugins, byId));
      }
      return result;
    },

    'plugin/skill/read': async (
      params: ParamsOf<'plugin/skill/read'>,
    ): Promise<ResultOf<'plugin/skill/read'>> => {
      const { marketplace, plugin } = await locate(params.remoteMarketplaceName, params.remotePluginId);
      const id = pluginId(plugin.name, marketplace.name);
      const copy = await plugins.find(id);
      let dir: string;
      try {
        dir = copy?.dir ?? (await realFolder(marketplace, plugin));
      } catch (error) {
        if (error instanceof PluginInstallError) throw invalidRequest(error.message);
        throw error;
      }
      const found = await scanRoot(await pluginSkillRoot(dir, id));
      const skill = found.skills.find((s) => s.name === params.skillName);
      if (!skill) {
        throw invalidParams(`Invalid params: skillName: ${id} has no skill ${params.skillName.slice(0, 80)}`);
      }
      const stat = await fs.stat(skill.path).catch(() => null);
      if (!stat || stat.size > MAX_SKILL_BYTES) return { contents: null };
      return { contents: await fs.readFile(skill.path, 'utf8') };
    },

    'plugin/reconcile': async (
      params: ParamsOf<'plugin/reconcile'>,
      { peer }: RequestContext,
    ): Promise<ResultOf<'plugin/reconcile'>> => {
      const { changed } = await reconcilePlugins(home, plugins, services.log);
      services.log.info(
        `plugin/reconcile${params.reason ? ` (${params.reason.slice(0, 120)})` : ''}: ${changed.length} changed`,
      );
      if (changed.length) {
        services.skills.invalidate();
        setImmediate(() => peer.notify('skills/changed', {}));
        announceApps(services, peer);
      }
      return {
        changedPlugins: changed.map(({ id, hasSkills, hasApps, hasMcps, hasHooks }) => ({
          id,
          hasSkills,
          hasApps,
          hasMcps,
          hasHooks,
        })),
        failedRemotePluginIds: [],
        failedMaterializationRemotePluginIds: [],
      };
    },
  };

  /** A marketplace by name among those in sight, and its plugin by name or `name@marketplace`. */
  async function locate(
    marketplaceName: string,
    pluginRef: string,
  ): Promise<{ marketplace: Marketplace; plugin: MarketplacePlugin }> {
    const installed = await plugins.installed();
    const { marketplaces } = await knownMarketplaces(home, []);
    let marketplace = marketplaces.find((m) => m.name === marketplaceName);
    // An installed plugin's marketplace (a repository's) counts too.
    const recorded = installed.find((plugin) => plugin.marketplaceName === marketplaceName);
    if (!marketplace && recorded)
      marketplace = await readMarketplace(recorded.marketplacePath).catch(() => undefined);
    if (!marketplace) {
      throw invalidParams(
        `Invalid params: remoteMarketplaceName: no marketplace ${marketplaceName.slice(0, 80)}`,
      );
    }
    const name = pluginRef.endsWith(`@${marketplace.name}`)
      ? pluginRef.slice(0, -marketplace.name.length - 1)
      : pluginRef;
    const plugin = marketplace.plugins.find((p) => p.name === name);
    if (!plugin) {
      throw invalidParams(
        `Invalid params: remotePluginId: ${marketplace.name} has no plugin ${name.slice(0, 80)}`,
      );
    }
    return { marketplace, plugin };
  }
}
