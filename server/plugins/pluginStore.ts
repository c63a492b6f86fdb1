// Installed plugins: each a copy of its folder under `$THREADLINE_HOME/plugins/<marketplace>/<name>`,
// with a record of where it came from. A copy is made beside the old one and renamed into place, so
// a failed install leaves what was there. The plugin's folder is copied from where it really is,
// which must be inside its marketplace's folder (a repository's `plugins/x` may be a link to the
// user's ~/.ssh). Links inside it are left out and named (one could point at the user's private
// files), nor is `.git` copied; a plugin too large to be one is refused.
import { randomUUID } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { join, relative } from 'node:path';
import type { AppDefinition } from '../apps/appConfig';
import { containedPath, ContainmentError } from '../fs/containedPath';
import type { SkillRoot } from '../skills/skillScan';
import { PART_NAME, type Marketplace, type MarketplacePlugin } from './marketplace';
import { pluginSkillRoot, readPluginFolder, type PluginParts } from './pluginFolder';

export interface InstallRecord {
  name: string;
  marketplaceName: string;
  marketplacePath: string;
  sourcePath: string;
  installedAt: number;
}

export interface InstalledPlugin extends InstallRecord {
  id: string;
  dir: string;
  parts: PluginParts;
}

export class PluginInstallError extends Error {}

/** The install's record in the copy: Threadline's, not the plugin's. */
export const RECORD = '.threadline-install.json';
const LIMITS = { files: 5000, bytes: 100 * 1024 * 1024 };

export const pluginId = (name: string, marketplace: string) => `${name}@${marketplace}`;

export class PluginStore {
  private readonly root: string;

  constructor(home: string) {
    this.root = join(home, 'plugins');
  }

  async installed(): Promise<InstalledPlugin[]> {
    const plugins: InstalledPlugin[] = [];
    for (const marketplace of await names(this.root)) {
      for (const name of await names(join(this.root, marketplace))) {
        const dir = join(this.root, marketplace, name);
        const record = await readRecord(dir);
        if (!record) continue;
        const parts = await readPluginFolder(dir, record.name).catch(() => null);
        if (parts) plugins.push({ ...record, id: pluginId(name, marketplace), dir, parts });
      }
    }
    return plugins;
  }

  async find(id: string): Promise<InstalledPlugin | undefined> {
    return (await this.installed()).find((plugin) => plugin.id === id);
  }

  /** Installs a copy of the plugin; also says which links in its folder were left out. */
  async install(
    marketplace: Marketplace,
    plugin: MarketplacePlugin,
  ): Promise<{ installed: InstalledPlugin; linksLeftOut: string[] }> {
    const source = await realFolder(marketplace, plugin);
    // Checked before the copy: the plugin's files must make sense on their own.
    await readPluginFolder(source, plugin.name);
    const parent = join(this.root, marketplace.name);
    const target = join(parent, plugin.name);
    const staging = join(this.root, `.staging-${randomUUID()}`);
    await fs.mkdir(parent, { recursive: true });
    const count: CopyCount = { files: 0, bytes: 0, linksLeftOut: [] };
    try {
      await copyTree(source, staging, count);
      const record: InstallRecord = {
        name: plugin.name,
        marketplaceName: marketplace.name,
        marketplacePath: marketplace.path,
        sourcePath: plugin.path,
        installedAt: Math.floor(Date.now() / 1000),
      };
      await fs.writeFile(join(staging, RECORD), `${JSON.stringify(record, null, 2)}\n`);
      const old = `${staging}-old`;
      const replaced = await fs.rename(target, old).then(
        () => true,
        () => false,
      );
      try {
        await fs.rename(staging, target);
      } catch (error) {
        if (replaced) await fs.rename(old, target);
        throw error;
      }
      if (replaced) await fs.rm(old, { recursive: true, force: true });
    } finally {
      await fs.rm(staging, { recursive: true, force: true });
    }
    const installed = await this.find(pluginId(plugin.name, marketplace.name));
    if (!installed) throw new PluginInstallError(`${plugin.name} did not install`);
    return { installed, linksLeftOut: count.linksLeftOut.map((link) => relative(source, link)) };
  }

  /** Removes the plugin's copy; false when it was not installed. */
  async uninstall(id: string): Promise<boolean> {
    const match = /^([^@/\\]+)@([^@/\\]+)$/.exec(id);
    if (!match || !PART_NAME.test(match[1]!) || !PART_NAME.test(match[2]!)) return false;
    const dir = join(this.root, match[2]!, match[1]!);
    if (!(await readRecord(dir))) return false;
    await fs.rm(dir, { recursive: true, force: true });
    return true;
  }

  async skillRoots(): Promise<SkillRoot[]> {
    return Promise.all((await this.installed()).map((plugin) => pluginSkillRoot(plugin.dir, plugin.id)));
  }

  /** The apps and MCP server definitions installed plugins bring. */
  async contributions(): Promise<{
    apps: AppDefinition[];
    mcpServers: Record<string, Record<string, unknown>>;
  }> {
    const plugins = await this.installed();
    return {
      apps: plugins.flatMap((plugin) => plugin.parts.apps),
      mcpServers: Object.assign({}, ...plugins.map((plugin) => plugin.parts.mcpServers)),
    };
  }
}

/** Where the plugin's folder really is, refused when its links lead out of the marketplace's folder. */
export async function realFolder(marketplace: Marketplace, plugin: MarketplacePlugin): Promise<string> {
  try {
    const boundary = {
      root: marketplace.root,
      rootName: "the marketplace's folder",
      userConfig: [],
      userHome: null,
    };
    return await containedPath(plugin.path, boundary);
  } catch (error) {
    if (error instanceof ContainmentError) throw new PluginInstallError(error.message);
    throw error;
  }
}

interface CopyCount {
  files: number;
  bytes: number;
  linksLeftOut: string[];
}

/** A link opened where a file was a moment ago fails instead of being followed (POSIX). */
const NO_FOLLOW = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

async function copyTree(from: string, to: string, count: CopyCount): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    if (entry.name === '.git' || entry.name === RECORD) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      await copyTree(source, target, count);
    } else if (entry.isSymbolicLink()) {
      count.linksLeftOut.push(source);
    } else if (entry.isFile()) {
      const file = await fs.open(source, NO_FOLLOW);
      try {
        const { size, mode } = await file.stat();
        count.files += 1;
        count.bytes += size;
        if (count.files > LIMITS.files || count.bytes > LIMITS.bytes) {
          throw new PluginInstallError(
            `the plugin is larger than ${LIMITS.files} files or ${LIMITS.bytes / 1024 / 1024} MiB`,
          );
        }
        await fs.writeFile(target, await file.readFile(), { mode: mode & 0o777 });
      } finally {
        await file.close();
      }
    }
    // Sockets and devices are left out.
  }
}

async function names(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && PART_NAME.test(e.name))
    .map((e) => e.name)
    .sort();
}

async function readRecord(dir: string): Promise<InstallRecord | null> {
  try {
    const value = JSON.parse(await fs.readFile(join(dir, RECORD), 'utf8')) as InstallRecord;
    return typeof value.name === 'string' && typeof value.marketplaceName === 'string' ? value : null;
  } catch {
    return null;
  }
}
