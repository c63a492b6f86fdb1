// Plugin marketplaces on disk for the plugin tests: a git repository whose
// `.agents/plugins/marketplace.json` lists plugins, and files written with their folders.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
