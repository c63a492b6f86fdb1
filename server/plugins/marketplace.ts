// Local marketplaces: JSON files naming plugins and the folders they come from.
//   {"name": "team", "interface": {"displayName": "Team"},
//    "plugins": [{"name": "lint-kit", "source": {"source": "local", "path": "./plugins/lint-kit"}}]}
// A marketplace lives at `.agents/plugins/marketplace.json` in the user's home folder or in a
// repository (found from a cwd up to its git root); a client may also name any marketplace file.
// Source paths are relative to the folder holding `.agents` (or to the file's folder when the file
// is elsewhere) and must stay inside it: here as written, and at install once links are resolved.
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { isWithin } from '../sandbox/protectedPaths';
import { isTable } from '../apps/appConfig';

export interface MarketplacePlugin {
  name: string;
  /** The plugin's folder (absolute). */
  path: string;
  description: string | null;
}

export interface Marketplace {
  name: string;
  path: string;
  /** The folder its plugins' sources are relative to, and must stay in. */
  root: string;
  displayName: string | null;
  plugins: MarketplacePlugin[];
}

export class MarketplaceError extends Error {}

/** Names a plugin or marketplace may have: they become folder names under the home. */
export const PART_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MARKETPLACE_FILE = join('.agents', 'plugins', 'marketplace.json');
const MAX_BYTES = 1024 * 1024;

export const marketplaceFileIn = (root: string) => join(root, MARKETPLACE_FILE);

/** The marketplace files to look at: the user's, the added ones (`added`), then each cwd's repository's. */
export async function marketplacePaths(cwds: string[], added: string[] = []): Promise<string[]> {
  const paths = [join(homedir(), MARKETPLACE_FILE), ...added];
  for (const cwd of cwds) {
    for (let dir = resolve(cwd); ; dir = dirname(dir)) {
      paths.push(join(dir, MARKETPLACE_FILE));
      if ((await fs.lstat(join(dir, '.git')).catch(() => null)) || dirname(dir) === dir) break;
    }
  }
  const existing = await Promise.all(
    paths.map(async (p) => ((await fs.stat(p).catch(() => null))?.isFile() ? p : null)),
  );
  return [...new Set(existing.filter((p): p is string => p !== null))];
}

export async function readMarketplace(path: string): Promise<Marketplace> {
  const stat = await fs.stat(path).catch(() => null);
  if (!stat?.isFile()) throw new MarketplaceError('no such marketplace file');
  if (stat.size > MAX_BYTES) throw new MarketplaceError('larger than 1 MiB');
  const root = rootOf(path);
  // A link out of the marketplace's folder (at ~/.ssh/config, say) is not read: even a parse
  // error could quote what it holds.
  const [realFile, realRoot] = await Promise.all([fs.realpath(path), fs.realpath(root)]);
  if (!isWithin(realRoot, realFile)) {
    throw new MarketplaceError(`the marketplace file leads to ${realFile}, outside its folder ${root}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(await fs.readFile(realFile, 'utf8'));
  } catch (error) {
    throw new MarketplaceError(`not valid JSON (${(error as Error).message})`);
  }
  if (!isTable(value)) throw new MarketplaceError('must hold a JSON object');
  const name = value.name;
  if (typeof name !== 'string' || !PART_NAME.test(name)) {
    throw new MarketplaceError('`name` must be letters, digits, `.`, `_` or `-` (at most 64)');
  }
  const entries = Array.isArray(value.plugins) ? value.plugins : [];
  const plugins: MarketplacePlugin[] = [];
  for (const entry of entries) {
    if (!isTable(entry) || typeof entry.name !== 'string' || !PART_NAME.test(entry.name)) continue;
    const source = isTable(entry.source) ? entry.source : {};
    const relative =
      typeof source.path === 'string' ? source.path : typeof entry.source === 'string' ? entry.source : null;
    if (relative === null) continue;
    const folder = resolve(root, relative);
    // A marketplace cannot point outside its own folder (at a user's private files, say).
    if (!isWithin(root, folder)) continue;
    plugins.push({
      name: entry.name,
      path: folder,
      description: typeof entry.description === 'string' ? entry.description : null,
    });
  }
  const display = isTable(value.interface) ? value.interface.displayName : null;
  return { name, path, root, displayName: typeof display === 'string' ? display : null, plugins };
}

/** The folder holding `.agents` for a file there, else the file's own folder. */
function rootOf(path: string): string {
  return basename(dirname(path)) === 'plugins' && basename(dirname(dirname(path))) === '.agents'
    ? dirname(dirname(dirname(path)))
    : dirname(path);
}
