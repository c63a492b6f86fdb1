// Where the harness finds code-server, Chromium and its output folder.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from '../paths';

export const harnessCache = resolve(repoRoot, '.cache', 'vscode-harness');
export const codeServerBin = join(harnessCache, 'bin', 'code-server');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const resultsDir = resolve(repoRoot, 'test-results');

export function resultsPath(...parts: string[]): string {
  const file = join(resultsDir, ...parts);
  mkdirSync(resolve(file, '..'), { recursive: true });
  return file;
}
