// A git marketplace's copy under `$THREADLINE_HOME/marketplaces/<name>`: cloned beside it into a
// staging folder through the hardened host git (server/git/hostGit.ts), checked (a marketplace file
// that reads, a name that matches, a size within bounds), then renamed into place, so a failed
// clone or upgrade leaves the copy that was there.
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { cloneOnHost, HostGitError, openHostGit } from '../git/hostGit';
import { MarketplaceError, marketplaceFileIn, readMarketplace, type Marketplace } from './marketplace';
import { clonesFolder } from './marketplaceRegistry';
import { sparsePatterns } from './marketplaceSource';

export interface StagedClone {
  dir: string;
  marketplace: Marketplace;
  revision: string;
  /** Removes the staging folder when it was not moved into place. */
  discard(): Promise<void>;
}

const LIMITS = { files: 20_000, bytes: 200 * 1024 * 1024 };

/** Clones into a staging folder and reads its marketplace; throws MarketplaceError with the reason. */
export async function stageClone(
  home: string,
  url: string,
  refName: string | null,
  sparsePaths: string[],
): Promise<StagedClone> {
  const parent = clonesFolder(home);
  await fs.mkdir(parent, { recursive: true });
  const name = `.staging-${randomUUID()}`;
  const dir = join(parent, name);
  const discard = () => fs.rm(dir, { recursive: true, force: true });
  try {
    await cloneOnHost(parent, url, name, refName, sparsePatterns(sparsePaths));
    await checkSize(dir);
    const marketplace = await readMarketplace(marketplaceFileIn(dir));
    const revision = (await (await openHostGit(dir))(['rev-parse', 'HEAD'])).trim();
    return { dir, marketplace, revision, discard };
  } catch (error) {
    await discard();
    if (error instanceof HostGitError) throw new MarketplaceError(`cannot clone ${url}: ${error.message}`);
    throw error;
  }
}

/** Moves the staged clone to the marketplace's place, replacing what was there only once it is in. */
export async function activateClone(home: string, staged: StagedClone, name: string): Promise<string> {
  const target = join(clonesFolder(home), name);
  const old = `${staged.dir}-old`;
  const replaced = await fs.rename(target, old).then(
    () => true,
    () => false,
  );
  try {
    await fs.rename(staged.dir, target);
  } catch (error) {
    if (replaced) await fs.rename(old, target);
    await staged.discard();
    throw error;
  }
  if (replaced) await fs.rm(old, { recursive: true, force: true });
  return target;
}

/** A marketplace is a catalog, not a disk filler: too many files or bytes and it is refused. */
async function checkSize(dir: string): Promise<void> {
  let files = 0;
  let bytes = 0;
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else {
        files += 1;
        bytes += (await fs.lstat(path)).size;
        if (files > LIMITS.files || bytes > LIMITS.bytes) {
          throw new MarketplaceError(
            `the repository is larger than ${LIMITS.files} files or ${LIMITS.bytes / 1024 / 1024} MiB`,
          );
        }
      }
    }
  };
  await walk(dir);
}
