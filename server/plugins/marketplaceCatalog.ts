// Every marketplace a request can see: the user's own file, the added ones (config.toml's
// `[marketplaces]`), and those of the cwds' repositories; each that cannot be read is reported with
// why, never fatal to the rest. plugin/list, plugin/installed and plugin/skill/read share it.
import { promises as fs } from 'node:fs';
import { userConfigFile } from '../config/layers';
import { BrokenConfigFile } from '../config/tomlFile';
import {
  MarketplaceError,
  marketplaceFileIn,
  marketplacePaths,
  readMarketplace,
  type Marketplace,
} from './marketplace';
import { addedMarketplaces } from './marketplaceRegistry';

export interface LoadError {
  marketplacePath: string;
  message: string;
}

export async function knownMarketplaces(
  home: string,
  cwds: string[],
): Promise<{ marketplaces: Marketplace[]; errors: LoadError[] }> {
  const errors: LoadError[] = [];
  let addedFiles: string[] = [];
  try {
    const { added, problems } = await addedMarketplaces(home);
    addedFiles = added.map((entry) => marketplaceFileIn(entry.root));
    for (const problem of problems)
      errors.push({ marketplacePath: userConfigFile(home), message: problem.message });
    for (const file of addedFiles) {
      if (!(await exists(file)))
        errors.push({ marketplacePath: file, message: 'the added marketplace is gone from disk' });
    }
  } catch (error) {
    if (!(error instanceof BrokenConfigFile)) throw error;
    errors.push({ marketplacePath: error.file, message: error.message });
  }
  const marketplaces: Marketplace[] = [];
  for (const path of await marketplacePaths(cwds, addedFiles)) {
    try {
      marketplaces.push(await readMarketplace(path));
    } catch (error) {
      if (!(error instanceof MarketplaceError)) throw error;
      errors.push({ marketplacePath: path, message: error.message });
    }
  }
  return { marketplaces, errors };
}

const exists = async (path: string) => (await fs.stat(path).catch(() => null))?.isFile() ?? false;
