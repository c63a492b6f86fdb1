// Builds the three bundles in one run: the extension host, the headless app-server, the webview.
// `--production` minifies without source maps (what ships); `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
    build.onResolve({ filter: /^\.\/server-[a-z-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'apart' }, (args) => ({
      contents: `module.exports = require('./${args.path}');`,
      loader: 'js',
    }));
  },
});

/**
 * Node's modules the handshake does not need, which the bundles load when one of their exports is
 * first read rather than when a module importing them loads: loading them at startup cost ~3.5 ms of
 * the ~15 ms a start may take over a bare Node server (bench/startup.mjs). Each import of one gets an
 * object with a getter per export (the names are this Node's, read at build time), which loads it
 * under Node's V8 flags so that it keeps Node's code cache (server/v8Flags.ts).
 */
const deferredBuiltins = [
  'crypto',
  'child_process',
  'readline',
  'fs/promises',
  'timers/promises',
  'perf_hooks',
  'v8',
];
const serverDir = fileURLToPath(new URL('./server', import.meta.url));
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    const filter = new RegExp(`^(node:)?(${deferredBuiltins.join('|').replaceAll('/', '\\/')})$`);
    build.onResolve({ filter }, (args) =>
      args.namespace === 'lazy-builtin' || args.importer === join(serverDir, 'v8Flags.ts')
        ? { path: args.path, external: true }
        : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const exported = Object.keys(await import(`node:${args.path}`)).filter((key) => key !== 'default');
      return {
        contents: `const { withNodeFlags } = require('./v8Flags');
let real;
const load = () => (real ??= withNodeFlags(() => require('node:${args.path}')));
module.exports = Object.defineProperties({}, {
${exported.map((key) => `  ${JSON.stringify(key)}: { get: () => load()[${JSON.stringify(key)}], enumerable: true },`).join('\n')}
});`,
        loader: 'js',
        resolveDir: serverDir,
      };
    });
  },
};

/**
 * What the server loads only when a request first needs it, each in a bundle of its own, so a start
 * reads and compiles the core alone: `import` is the specifier (in `from`'s bundle) that loads it.
 */
const onDemand = [
  // The model clients: when a turn first needs a model, never at startup.
  {
    bundle: 'server-providers',
    entry: 'server/providers/index.ts',
    from: 'core',
    import: /\/providers\/index$/,
  },
  // The official model SDKs: only to list a provider's models.
  {
    bundle: 'server-sdks',
    entry: 'server/providers/sdks.ts',
    from: 'server-providers',
    import: /^\.\/sdks$/,
  },
  // The shell parsers (tree-sitter and the bash and PowerShell grammars): when the first command line is read.
  { bundle: 'server-bash', entry: 'server/exec/bashParser.ts', from: 'core', import: /^\.\/bashParser$/ },
  // The MCP SDK's client: when the first MCP server starts.
  { bundle: 'server-mcp', entry: 'server/mcp/mcpSdk.ts', from: 'core', import: /^\.\/mcpSdk$/ },
  // The thread search index (FlexSearch): at the first search.
  {
    bundle: 'server-search',
    entry: 'server/search/searchIndex.ts',
    from: 'core',
    import: /^\.\/searchIndex$/,
  },
  // The WebSocket server: only with `--listen ws://…`.
  { bundle: 'server-ws', entry: 'ws', from: 'core', import: /^ws$/ },
  // The file indexes for fuzzyFileSearch and their ranking (fuzzysort): at the first file search.
  {
    bundle: 'server-files',
    entry: 'server/search/fileIndexes.ts',
    from: 'core',
    import: /\/search\/fileIndexes$/,
  },
  // YAML, for SKILL.md front matter: when skills are first listed.
  { bundle: 'server-yaml', entry: 'yaml', from: 'core', import: /^yaml$/ },
  // The comment-keeping TOML writer: at the first config write.
  {
    bundle: 'server-toml-patch',
    entry: '@decimalturn/toml-patch',
    from: 'core',
    import: /^@decimalturn\/toml-patch$/,
  },
];

/**
 * The core starts with a hash of its own content, which keys its V8 code cache
 * (server/cli/codeCache.ts): the launcher reads it at no cost, where hashing the bundle at each start
 * would not be. Built with a placeholder of the same length, so the source map stays right.
 */
const coreStamp = (hash) => `/*threadline-core:${hash}*/`;
function stampCore() {
  const file = 'dist/server-core.js';
  const text = readFileSync(file, 'utf8');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  writeFileSync(file, text.replace(coreStamp('0'.repeat(16)), coreStamp(hash)));
}

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
    plugins: [lazyBuiltins],
    banner: { js: '#!/usr/bin/env node' },
  },
  'server-core': {
    ...node,
    entryPoints: { 'server-core': 'server/core.ts' },
    outdir: 'dist',
    banner: { js: coreStamp('0'.repeat(16)) },
    plugins: [
      lazyBuiltins,
      ...onDemand
        .filter((part) => part.from === 'core')
        .map((part) => apart(part.import, `${part.bundle}.js`)),
    ],
  },
  ...Object.fromEntries(
    onDemand.map((part) => [
      part.bundle,
      {
        ...node,
        entryPoints: { [part.bundle]: part.entry },
        outdir: 'dist',
        plugins: onDemand
          .filter((inner) => inner.from === part.bundle)
          .map((inner) => apart(inner.import, `${inner.bundle}.js`)),
      },
    ]),
  ),
  webview: {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    // The conversation and the usage panel (extension/usage/usagePanel.ts): one bundle, so React and the
    // elements ship once.
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
    console.log(`  ${name.padEnd(17)} ${file.padEnd(29)} ${(info.bytes / 1024).toFixed(1).padStart(8)} KiB`);
  }
}

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
// The WebAssembly the shell parsers load from beside their bundle.
for (const wasm of ['tree-sitter.wasm', 'tree-sitter-bash.wasm', 'tree-sitter-powershell.wasm']) {
  copyFileSync(`node_modules/@vscode/tree-sitter-wasm/wasm/${wasm}`, `dist/${wasm}`);
}
if (watch) {
  for (const [name, options] of Object.entries(builds)) {
    const onEnd = (r) => {
      if (!r.metafile) return;
      report(name, r);
      if (name === 'server') chmodSync('dist/server.js', 0o755);
      if (name === 'server-core') stampCore();
    };
    const plugins = [...(options.plugins ?? []), { name: 'report', setup: (b) => b.onEnd(onEnd) }];
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
  stampCore();
}
