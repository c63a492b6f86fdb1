// Bundles the in-editor tests into one CommonJS file the extension host can load (it cannot run TypeScript).
import * as esbuild from 'esbuild';
import { resolve } from 'node:path';
import { repoRoot } from '../support/paths';

// Per clone (.cache may be shared between clones, and two runs at once would overwrite each other's bundle).
export const testsEntry = resolve(repoRoot, '.scratch', 'vscode-tests', 'index.js');

export async function bundleInEditorTests(): Promise<string> {
  await esbuild.build({
    entryPoints: [resolve(__dirname, 'index.ts')],
    outfile: testsEntry,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return testsEntry;
}
