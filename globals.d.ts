// Replaced at build time by esbuild's `define` with package.json's version.
declare const __THREADLINE_VERSION__: string;
