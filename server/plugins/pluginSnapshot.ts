// What plugin/reconcile compares against: for each installed plugin, a fingerprint of its files (the
// ones an install copies: no links, no `.git`) and what kinds of things it brings, kept in
// `$THREADLINE_HOME/plugins/.reconciled.json`. Install and uninstall update their one entry, so a
// reconcile reports only what changed behind the server's back (files edited, a copy deleted).
import { createHash } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../tools/applyPatch/atomicFile';
import { RECORD, type InstalledPlugin } from './pluginStore';

export interface SnapshotEntry {
  fingerprint: string;
  hasSkills: boolean;
  hasApps: boolean;
  hasMcps: boolean;
  /** Threadline's plugins bring no hooks (plugin/read lists none); kept for the reference's shape. */
  hasHooks: boolean;
}

export type Snapshot = Record<string, SnapshotEntry>;

const FILE = '.reconciled.json';
/** What an install does not copy, or adds (its record): not the plugin's own files. */
const OWN = new Set(['.git', RECORD]);
const LIMITS = { files: 5000, bytes: 100 * 1024 * 1024 };
const NO_FOLLOW = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

export async function readSnapshot(home: string): Promise<Snapshot> {
  try {
    const value = JSON.parse(await fs.readFile(join(home, 'plugins', FILE), 'utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Snapshot) : {};
  } catch {
    // Missing or broken: every installed plugin then counts as changed once, which is harmless.
    return {};
  }
}

export async function writeSnapshot(home: string, snapshot: Snapshot): Promise<void> {
  await fs.mkdir(join(home, 'plugins'), { recursive: true });
  await writeFileAtomic(join(home, 'plugins', FILE), Buffer.from(`${JSON.stringify(snapshot, null, 2)}\n`));
}

/** Sets (or, with null, drops) one plugin's entry. */
export async function noteInSnapshot(home: string, id: string, entry: SnapshotEntry | null): Promise<void> {
  const snapshot = await readSnapshot(home);
  if (entry) snapshot[id] = entry;
  else delete snapshot[id];
  await writeSnapshot(home, snapshot);
}

export async function entryOf(plugin: InstalledPlugin): Promise<SnapshotEntry> {
  const skills = await fs.stat(join(plugin.dir, 'skills')).catch(() => null);
  return {
    fingerprint: (await fingerprint(plugin.dir)) ?? 'too-large',
    hasSkills: skills?.isDirectory() ?? false,
    hasApps: plugin.parts.apps.length > 0,
    hasMcps: Object.keys(plugin.parts.mcpServers).length > 0,
    hasHooks: false,
  };
}

/** A hash of the folder's files, their paths and modes; null when it is larger than a plugin may be. */
export async function fingerprint(dir: string): Promise<string | null> {
  const hash = createHash('sha256');
  const count = { files: 0, bytes: 0 };
  const walk = async (folder: string): Promise<boolean> => {
    const entries = await fs.readdir(folder, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (OWN.has(entry.name)) continue;
      const path = join(folder, entry.name);
      const name = relative(dir, path).split(sep).join('/');
      if (entry.isDirectory()) {
        hash.update(`dir ${name}\0`);
        if (!(await walk(path))) return false;
      } else if (entry.isFile()) {
        const file = await fs.open(path, NO_FOLLOW);
        try {
          const bytes = await file.readFile();
          count.files += 1;
          count.bytes += bytes.length;
          if (count.files > LIMITS.files || count.bytes > LIMITS.bytes) return false;
          const executable = ((await file.stat()).mode & 0o111) !== 0;
          hash.update(`file ${name} ${executable ? 'x' : '-'} ${bytes.length}\0`).update(bytes);
        } finally {
          await file.close();
        }
      }
    }
    return true;
  };
  return (await walk(dir)) ? hash.digest('hex') : null;
}
