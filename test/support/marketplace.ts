// Plugin marketplaces on disk for the plugin tests: a git repository whose
// `.agents/plugins/marketplace.json` lists plugins, and files written with their folders.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git } from './git';
import { tempDir } from './tempDirs';

export function writeWithFolders(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A fresh repository holding this marketplace file (its plugins' folders are the caller's to fill). */
export function marketplaceRepo(marketplace: Record<string, unknown>): {
  repo: string;
  marketplacePath: string;
} {
  const repo = tempDir('threadline-repo-');
  execFileSync('git', ['init', '-q', repo]);
  const marketplacePath = join(repo, '.agents', 'plugins', 'marketplace.json');
  writeWithFolders(marketplacePath, JSON.stringify(marketplace));
  return { repo, marketplacePath };
}

/** A marketplace repository with one plugin `plugin` bringing one skill of the same name. */
export function marketplaceWithPlugin(name: string, plugin: string, body = 'STEPS') {
  const made = marketplaceRepo({
    name,
    plugins: [{ name: plugin, source: { source: 'local', path: `./plugins/${plugin}` } }],
  });
  writeSkill(made.repo, plugin, body);
  writeWithFolders(
    join(made.repo, 'plugins', plugin, '.codex-plugin', 'plugin.json'),
    JSON.stringify({ name: plugin, version: '1.0.0' }),
  );
  return made;
}

export function writeSkill(repo: string, plugin: string, body: string): void {
  writeWithFolders(
    join(repo, 'plugins', plugin, 'skills', plugin, 'SKILL.md'),
    `---\nname: ${plugin}\ndescription: The ${plugin} skill\n---\n${body}\n`,
  );
}

/** Commits everything in the repository (a git marketplace's next version). */
export const commitAll = (repo: string, message: string) => {
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
};
