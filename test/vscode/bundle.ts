// Bundles the in-editor tests into one CommonJS file the extension host can load (it cannot run TypeScript).
import * as esbuild from 'esbuild';
import { resolve } from 'node:path';
import { repoRoot } from '../helpers/paths';

export const testsEntry = resolve(repoRoot, '.cache', 'vscode-tests', 'index.js');

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
