// Builds the three bundles in one run: the extension host, the headless app-server, the webview.
// `--production` minifies without source maps (what ships); `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
  define: { __THREADLINE_VERSION__: JSON.stringify(pkg.version) },
};

const node = { ...common, platform: 'node', format: 'cjs', target: 'node20' };

/**
 * Leaves a module out of a bundle: importing it loads `bundle` (another of our outputs) with require,
 * when first needed. The core runs from a vm.Script, where a dynamic import() has no loader.
 */
const apart = (filter, bundle) => ({
  name: `apart-${bundle}`,
  setup(build) {
    build.onResolve({ filter }, () => ({ path: bundle, namespace: 'apart' }));
    build.onResolve({ filter: /^\.\/server-[a-z]+\.js$/ }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'apart' }, (args) => ({
      contents: `module.exports = require('./${args.path}');`,
      loader: 'js',
    }));
  },
});

const builds = {
  extension: {
    ...node,
    entryPoints: { extension: 'extension/main.ts' },
    outdir: 'dist',
    external: ['vscode'],
  },
  server: {
    ...node,
    entryPoints: { server: 'server/cli/main.ts' },
    outdir: 'dist',
    banner: { js: '#!/usr/bin/env node' },
  },
  'server-core': {
    ...node,
    entryPoints: { 'server-core': 'server/core.ts' },
    outdir: 'dist',
    plugins: [
      apart(/\/providers\/index$/, 'server-providers.js'),
      apart(/^\.\/bashParser$/, 'server-bash.js'),
      apart(/^\.\/mcpSdk$/, 'server-mcp.js'),
    ],
  },
  // The MCP SDK's client: loaded when the first MCP server starts.
  'server-mcp': {
    ...node,
    entryPoints: { 'server-mcp': 'server/mcp/mcpSdk.ts' },
    outdir: 'dist',
  },
  // The bash parser (tree-sitter and its bash grammar): loaded when the first command line is read.
  'server-bash': {
    ...node,
    entryPoints: { 'server-bash': 'server/exec/bashParser.ts' },
    outdir: 'dist',
  },
  // The model clients: loaded when a turn first needs a model, never at startup.
  'server-providers': {
    ...node,
    entryPoints: { 'server-providers': 'server/providers/index.ts' },
    outdir: 'dist',
    plugins: [apart(/^\.\/sdks$/, 'server-sdks.js')],
  },
  // The official SDKs: loaded only to list a provider's models.
  'server-sdks': {
    ...node,
    entryPoints: { 'server-sdks': 'server/providers/sdks.ts' },
    outdir: 'dist',
  },
  webview: {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: { webview: 'webview/main.tsx' },
    outdir: 'dist',
    loader: { '.ttf': 'file' },
    assetNames: '[name]',
    define: {
      ...common.define,
      'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development'),
    },
  },
};

function report(name, result) {
  const outputs = Object.entries(result.metafile.outputs).filter(([file]) => !file.endsWith('.map'));
  for (const [file, info] of outputs) {
    console.log(`  ${name.padEnd(11)} ${file.padEnd(24)} ${(info.bytes / 1024).toFixed(1).padStart(8)} KiB`);
  }
}

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
// The WebAssembly the bash parser loads from beside its bundle.
for (const wasm of ['tree-sitter.wasm', 'tree-sitter-bash.wasm']) {
  copyFileSync(`node_modules/@vscode/tree-sitter-wasm/wasm/${wasm}`, `dist/${wasm}`);
}
if (watch) {
  for (const [name, options] of Object.entries(builds)) {
    const onEnd = (r) => {
      if (!r.metafile) return;
      report(name, r);
      if (name === 'server') chmodSync('dist/server.js', 0o755);
    };
    const plugins = [{ name: 'report', setup: (b) => b.onEnd(onEnd) }];
    const ctx = await esbuild.context({ ...options, plugins });
    await ctx.watch();
  }
  console.log('watching for changes…');
} else {
  const results = await Promise.all(
    Object.entries(builds).map(async ([name, o]) => [name, await esbuild.build(o)]),
  );
  console.log(`Threadline ${pkg.version} (${production ? 'production' : 'development'} build):`);
  for (const [name, result] of results) {
    report(name, result);
    writeFileSync(`dist/${name}.meta.json`, JSON.stringify(result.metafile));
  }
  chmodSync('dist/server.js', 0o755);
}
