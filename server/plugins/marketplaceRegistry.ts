// The marketplaces a client added (marketplace/add), kept in the user's config.toml with the
// reference's keys, so a Codex config carries over and a hand-written entry counts too:
//   [marketplaces.team]
//   source_type = "git"            # or "local"
//   source = "https://example.com/team/plugins.git"
//   ref_name = "main"              # optional
//   sparse_paths = ["plugins/lint"] # optional: only these folders are checked out
//   last_revision = "<commit>"     # git: the commit cloned
//   last_updated = "2026-11-27T05:00:00Z"
// A local marketplace is read where it is; a git one is cloned to `$THREADLINE_HOME/marketplaces/<name>`.
import { join } from 'node:path';
import { userConfigFile } from '../config/layers';
import { isPlainTable, readTomlFile } from '../config/tomlFile';
import type { ConfigService } from '../config/configService';
import { PART_NAME } from './marketplace';

export interface AddedMarketplace {
  name: string;
  sourceType: 'local' | 'git';
  source: string;
  refName: string | null;
  /** A git marketplace checked out in part: these folders (and `.agents`) only. */
  sparsePaths: string[];
  lastRevision: string | null;
  /** The folder holding `.agents/plugins/marketplace.json`. */
  root: string;
}

/** Where git marketplaces are cloned. */
export const clonesFolder = (home: string) => join(home, 'marketplaces');

/** The added marketplaces, and the entries that cannot be used (named, not fatal). */
export async function addedMarketplaces(
  home: string,
): Promise<{ added: AddedMarketplace[]; problems: { name: string; message: string }[] }> {
  // A broken config.toml throws BrokenConfigFile, whose message names the file and the fix.
  const { table } = await readTomlFile(userConfigFile(home));
  const entries = isPlainTable(table.marketplaces) ? table.marketplaces : {};
  const added: AddedMarketplace[] = [];
  const problems: { name: string; message: string }[] = [];
  for (const [name, entry] of Object.entries(entries).sort(([a], [b]) => a.localeCompare(b))) {
    const problem = (message: string) => problems.push({ name, message: `marketplaces.${name}: ${message}` });
    if (!PART_NAME.test(name)) {
      problem('the name must be letters, digits, `.`, `_` or `-` (at most 64)');
      continue;
    }
    if (!isPlainTable(entry) || typeof entry.source !== 'string') {
      problem('needs a `source`');
      continue;
    }
    const sourceType = entry.source_type === 'local' ? 'local' : entry.source_type === 'git' ? 'git' : null;
    if (!sourceType) {
      problem('`source_type` must be "local" or "git"');
      continue;
    }
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    added.push({
      name,
      sourceType,
      source: entry.source,
      refName: text(entry.ref_name),
      sparsePaths: Array.isArray(entry.sparse_paths)
        ? entry.sparse_paths.filter((path): path is string => typeof path === 'string')
        : [],
      lastRevision: text(entry.last_revision),
      root: sourceType === 'local' ? entry.source : join(clonesFolder(home), name),
    });
  }
  return { added, problems };
}

export function recordMarketplace(
  config: ConfigService,
  entry: Omit<AddedMarketplace, 'root'>,
): Promise<unknown> {
  const value: Record<string, string | string[]> = {
    source_type: entry.sourceType,
    source: entry.source,
    last_updated: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  if (entry.refName) value.ref_name = entry.refName;
  if (entry.sparsePaths.length) value.sparse_paths = entry.sparsePaths;
  if (entry.lastRevision) value.last_revision = entry.lastRevision;
  return config.write([{ keyPath: keyOf(entry.name), value, mergeStrategy: 'replace' }], null, null);
}

export function forgetMarketplace(config: ConfigService, name: string): Promise<unknown> {
  return config.write([{ keyPath: keyOf(name), value: null, mergeStrategy: 'replace' }], null, null);
}

// Quoted: a marketplace name may hold a dot.
const keyOf = (name: string) => `marketplaces."${name}"`;
