// Replaced at build time by esbuild's `define` with package.json's version.
declare const __THREADLINE_VERSION__: string;
// The Node modules the core loads on first use (esbuild.mjs, lazyBuiltins), for the launcher.
declare const __DEFERRED_BUILTINS__: readonly string[];
