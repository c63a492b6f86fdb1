// marketplace/add, marketplace/remove and marketplace/upgrade. A marketplace's content is somebody
// else's: its file is read with the checks of plugins/marketplace.ts, a git one is cloned through the
// hardened host git into a staging folder and moved into place only once it reads. Plugins installed
// from a removed marketplace stay installed (as the reference keeps them); plugin/uninstall removes them.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { answer } from './config';
import { MarketplaceError, marketplaceFileIn, PART_NAME, readMarketplace } from '../plugins/marketplace';
import { activateClone, stageClone } from '../plugins/marketplaceClone';
import {
  addedMarketplaces,
  clonesFolder,
  forgetMarketplace,
  recordMarketplace,
  type AddedMarketplace,
} from '../plugins/marketplaceRegistry';
import { MarketplaceSourceError, parseMarketplaceSource, sparsePaths } from '../plugins/marketplaceSource';

export function marketplaceHandlers(services: Services): HandlerTable {
  const { home, configuration, log } = services;

  /** Reads the marketplace a folder holds; what is wrong with it is the request's fault. */
  async function readIn(root: string) {
    try {
      return await readMarketplace(marketplaceFileIn(root));
    } catch (error) {
      if (error instanceof MarketplaceError) {
        throw invalidRequest(`${marketplaceFileIn(root)}: ${error.message}`);
      }
      throw error;
    }
  }

  // A broken config.toml is named with its fix (answer's -32600), never a crash.
  const added = (): Promise<AddedMarketplace[]> => answer(async () => (await addedMarketplaces(home)).added);
  const record = (entry: Parameters<typeof recordMarketplace>[1]) =>
    answer(() => recordMarketplace(configuration, entry));

  /** A marketplace of this name that is not the same source as the one being added. */
  function refuseTaken(entries: AddedMarketplace[], name: string, source: string): void {
    if (entries.some((entry) => entry.name === name)) {
      throw invalidRequest(
        `marketplace ${name} is already added from another source; remove it before adding ${source}`,
      );
    }
  }

  return {
    'marketplace/add': async (params: ParamsOf<'marketplace/add'>): Promise<ResultOf<'marketplace/add'>> => {
      let source;
      let sparse: string[];
      try {
        source = parseMarketplaceSource(params.source, params.refName ?? null);
        sparse = sparsePaths(params.sparsePaths ?? []);
      } catch (error) {
        if (error instanceof MarketplaceSourceError) throw invalidParams(`Invalid params: ${error.message}`);
        throw error;
      }
      if (source.type === 'local' && sparse.length) {
        throw invalidParams('Invalid params: sparsePaths: only a git marketplace is checked out in part');
      }
      const entries = await added();
      if (source.type === 'local') {
        const root = await fs.realpath(source.path).catch(() => null);
        if (!root || !(await fs.stat(root)).isDirectory()) {
          throw invalidParams(`Invalid params: source: ${source.path} is not a folder`);
        }
        const marketplace = await readIn(root);
        const same = entries.find((e) => e.sourceType === 'local' && e.source === root);
        if (same) return { marketplaceName: same.name, installedRoot: root, alreadyAdded: true };
        refuseTaken(entries, marketplace.name, root);
        await record({
          name: marketplace.name,
          sourceType: 'local',
          source: root,
          refName: null,
          sparsePaths: [],
          lastRevision: null,
        });
        log.info(`marketplace ${marketplace.name} added from ${root}`);
        return { marketplaceName: marketplace.name, installedRoot: root, alreadyAdded: false };
      }
      const same = entries.find(
        (e) =>
          e.sourceType === 'git' &&
          e.source === source.url &&
          e.refName === source.refName &&
          e.sparsePaths.join('\n') === sparse.join('\n'),
      );
      if (same && (await fs.stat(marketplaceFileIn(same.root)).catch(() => null))) {
        return { marketplaceName: same.name, installedRoot: same.root, alreadyAdded: true };
      }
      let staged;
      try {
        staged = await stageClone(home, source.url, source.refName, sparse);
      } catch (error) {
        if (error instanceof MarketplaceError) throw invalidRequest(error.message);
        throw error;
      }
      const name = staged.marketplace.name;
      try {
        if (same && same.name !== name) {
          throw invalidRequest(
            `the repository now names its marketplace ${name}, not ${same.name}; remove ${same.name} first`,
          );
        }
        if (!same) refuseTaken(entries, name, source.url);
        if (!same && (await fs.lstat(join(clonesFolder(home), name)).catch(() => null))) {
          throw invalidRequest(
            `${join(clonesFolder(home), name)} exists already; remove it before adding ${source.url}`,
          );
        }
      } catch (error) {
        await staged.discard();
        throw error;
      }
      const root = await activateClone(home, staged, name);
      await record({
        name,
        sourceType: 'git',
        source: source.url,
        refName: source.refName,
        sparsePaths: sparse,
        lastRevision: staged.revision,
      });
      log.info(`marketplace ${name} cloned from ${source.url} at ${staged.revision}`);
      return { marketplaceName: name, installedRoot: root, alreadyAdded: false };
    },

    'marketplace/remove': async (
      params: ParamsOf<'marketplace/remove'>,
    ): Promise<ResultOf<'marketplace/remove'>> => {
      const name = params.marketplaceName;
      if (!PART_NAME.test(name)) {
        throw invalidParams(
          `Invalid params: marketplaceName: ${name.slice(0, 80)} is not a marketplace name`,
        );
      }
      const entry = (await added()).find((e) => e.name === name);
      const clone = join(clonesFolder(home), name);
      const cloned = (await fs.lstat(clone).catch(() => null)) !== null;
      if (!entry && !cloned) throw invalidParams(`Invalid params: marketplaceName: ${name} is not added`);
      if (entry) await answer(() => forgetMarketplace(configuration, name));
      if (cloned) await fs.rm(clone, { recursive: true, force: true });
      log.info(`marketplace ${name} removed`);
      return { marketplaceName: name, installedRoot: cloned ? clone : null };
    },

    'marketplace/upgrade': async (
      params: ParamsOf<'marketplace/upgrade'>,
    ): Promise<ResultOf<'marketplace/upgrade'>> => {
      const entries = await added();
      const wanted = params.marketplaceName;
      if (wanted && !entries.some((e) => e.name === wanted)) {
        throw invalidParams(`Invalid params: marketplaceName: ${wanted.slice(0, 80)} is not added`);
      }
      const selected = entries.filter((e) => (wanted ? e.name === wanted : e.sourceType === 'git'));
      const result: ResultOf<'marketplace/upgrade'> = {
        selectedMarketplaces: selected.map((e) => e.name),
        upgradedRoots: [],
        errors: [],
      };
      for (const entry of selected) {
        try {
          if (await upgrade(entry)) result.upgradedRoots.push(entry.root);
        } catch (error) {
          if (!(error instanceof MarketplaceError)) throw error;
          result.errors.push({ marketplaceName: entry.name, message: error.message });
        }
      }
      return result;
    },
  };

  /**
   * A git marketplace cloned again, replacing the copy when the commit moved; a local one is only
   * read again (it is used where it is), which reports a file that broke. True when it changed.
   */
  async function upgrade(entry: AddedMarketplace): Promise<boolean> {
    if (entry.sourceType === 'local') {
      await readMarketplace(marketplaceFileIn(entry.root));
      return false;
    }
    const staged = await stageClone(home, entry.source, entry.refName, entry.sparsePaths);
    const present = await fs.stat(marketplaceFileIn(entry.root)).catch(() => null);
    if (present && staged.revision === entry.lastRevision) {
      await staged.discard();
      return false;
    }
    if (staged.marketplace.name !== entry.name) {
      await staged.discard();
      throw new MarketplaceError(
        `the repository now names its marketplace ${staged.marketplace.name}, not ${entry.name}; remove and add it again`,
      );
    }
    await activateClone(home, staged, entry.name);
    await record({ ...entry, lastRevision: staged.revision });
    log.info(`marketplace ${entry.name} upgraded to ${staged.revision}`);
    return true;
  }
}
