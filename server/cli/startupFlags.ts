// The V8 flags the server runs with, set around its start. Node's code cache of its own modules is
// accepted only under the V8 flags it was made with, Node's defaults (v8Flags.ts): so the one flag
// startup needs comes after the Node modules startup loads, the rest once the handshake is answered
// (after the core's code cache is saved), and the Node modules loaded after that put Node's flags
// back for the moment they load. Flags are set at run time: any on the command line would turn the
// code cache down for every module.
import { skipOptimizingCompiler } from '../optimizingCompiler';
import { setV8Flag } from '../v8Flags';

/**
 * V8 doubles the young generation under allocation pressure (up to 2 × 16 MiB) and never shrinks
 * it while the process idles, so one burst of traffic left a server holding 30 MiB of empty
 * semi-space for good; startup alone grew it to 8 MiB. Semi-spaces that do not grow keep it at
 * 2 MiB; the extra scavenges cost a streamed turn nothing measurable (bench/turnStream.ts).
 */
const SMALL_YOUNG_GENERATION = '--semi-space-growth-factor=1';

/**
 * V8 lets the old generation grow to several times what survived its last full collection before
 * collecting again: a turn streaming a 50 MB answer (tens of thousands of small, short-lived event
 * objects, each promoted by the small young generation) took the heap to ~450 MiB. Growing it by
 * a smaller factor kept the same turn to ~270 MiB of growth (bench/longAnswer.ts), and a paused client's
 * 40,000-delta turn the same or lower (bench/pausedClient.ts); the heap's limit is untouched.
 */
const SMALL_HEAP_GROWTH = '--optimize-for-size';

/**
 * Before the core loads: what answering over stdio loads of Node's (its pipes), and the promise API
 * behind node:fs's `promises` getter, which no lazy import covers (esbuild.mjs, lazyBuiltins) and which
 * a request arriving before the running flags are set (a busy machine) would otherwise load under the
 * changed flags, from source; then the flag.
 */
export function setStartupFlags(): void {
  module.require('node:net');
  module.require('node:fs/promises');
  setV8Flag(SMALL_YOUNG_GENERATION);
}

/** Once the handshake is answered, after the core's code cache is saved (under the flags it loaded with). */
export function setRunningFlags(): void {
  setV8Flag(SMALL_HEAP_GROWTH);
  skipOptimizingCompiler();
}
