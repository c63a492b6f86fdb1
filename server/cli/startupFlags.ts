// The V8 flags the server runs with, set around its start. Node's code cache of its own modules is
// accepted only under the V8 flags it was made with, Node's defaults: every Node module loaded after
// a change compiles from source (at startup, 45 of them took ~10 ms more). So the one flag startup
// needs comes after the Node modules startup loads, the Node modules the server needs next are
// loaded right after the handshake with Node's flags put back for that moment, and the optimizing
// compiler goes off last. Flags are set at run time: any on the command line would turn the code
// cache down for every module.
import { setFlagsFromString } from 'node:v8';
import { skipOptimizingCompiler } from '../optimizingCompiler';

/** V8's default (11.x); a Node whose V8 has another only loses the code cache of the modules below. */
const DEFAULT_SEMI_SPACE_GROWTH = '--semi-space-growth-factor=2';

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

/** Before the core loads: what answering over stdio loads of Node's (its pipes), then the flag. */
export function setStartupFlags(): void {
  module.require('node:net');
  setFlagsFromString(SMALL_YOUNG_GENERATION);
}

/**
 * Once the handshake is answered (after the core's code cache is saved, under the flags it is
 * loaded with): the Node modules the core defers (esbuild.mjs, lazyBuiltins), which the warm-up
 * after the handshake needs at once, then the optimizing compiler off.
 */
export function setRunningFlags(): void {
  setFlagsFromString(DEFAULT_SEMI_SPACE_GROWTH);
  for (const name of __DEFERRED_BUILTINS__) module.require(`node:${name}`);
  setFlagsFromString(SMALL_YOUNG_GENERATION);
  setFlagsFromString(SMALL_HEAP_GROWTH);
  skipOptimizingCompiler();
}
