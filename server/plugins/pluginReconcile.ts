// plugin/reconcile's pass: each installed plugin whose source folder (in its marketplace, as it is
// on disk now) differs from the installed copy is installed again from it; then the installed set is
// compared with the last pass's snapshot, and the plugins that came, changed or went are reported.
// A source that is gone, or that no longer installs, leaves the copy as it is (and is logged).
import type { Logger } from '../log';
import { MarketplaceError, readMarketplace } from './marketplace';
import { PluginFolderError } from './pluginFolder';
import {
  entryOf,
  fingerprint,
  readSnapshot,
  writeSnapshot,
  type Snapshot,
  type SnapshotEntry,
} from './pluginSnapshot';
import { PluginInstallError, realFolder, type PluginStore } from './pluginStore';

export interface ReconcileOutcome {
  changed: (SnapshotEntry & { id: string })[];
}

export async function reconcilePlugins(
  home: string,
  store: PluginStore,
  log: Logger,
): Promise<ReconcileOutcome> {
  for (const plugin of await store.installed()) {
    try {
      const marketplace = await readMarketplace(plugin.marketplacePath);
      const source = marketplace.plugins.find((entry) => entry.name === plugin.name);
      if (!source) {
        log.info(`plugin ${plugin.id}: ${marketplace.name} no longer lists it; the installed copy stays`);
        continue;
      }
      const from = await fingerprint(await realFolder(marketplace, source));
      if (from !== null && from === (await fingerprint(plugin.dir))) continue;
      await store.install(marketplace, source);
      log.info(`plugin ${plugin.id}: installed again from ${source.path}, whose files changed`);
    } catch (error) {
      const known =
        error instanceof MarketplaceError ||
        error instanceof PluginFolderError ||
        error instanceof PluginInstallError ||
        (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!known) throw error;
      log.warn(
        `plugin ${plugin.id}: its source cannot be read (${(error as Error).message}); the installed copy stays`,
      );
    }
  }
  const before = await readSnapshot(home);
  const now: Snapshot = {};
  for (const plugin of await store.installed()) now[plugin.id] = await entryOf(plugin);
  const changed: ReconcileOutcome['changed'] = [];
  for (const [id, entry] of Object.entries(now)) {
    const old = before[id];
    if (old?.fingerprint === entry.fingerprint) continue;
    // An update counts what either version brought.
    changed.push({
      id,
      fingerprint: entry.fingerprint,
      hasSkills: entry.hasSkills || Boolean(old?.hasSkills),
      hasApps: entry.hasApps || Boolean(old?.hasApps),
      hasMcps: entry.hasMcps || Boolean(old?.hasMcps),
      hasHooks: entry.hasHooks || Boolean(old?.hasHooks),
    });
  }
  for (const [id, old] of Object.entries(before)) if (!(id in now)) changed.push({ ...old, id });
  await writeSnapshot(home, now);
  return { changed: changed.sort((a, b) => a.id.localeCompare(b.id)) };
}
