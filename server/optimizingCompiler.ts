// V8's optimizing compiler, off for the life of the server and on only for pure computation.
//
// The server idles most of its life and its busy paths run in V8's built-ins (JSON, strings, I/O),
// yet the optimizing compiler woke up for a few list calls and kept ~5 MiB of its own code and data:
// 57–62 MiB idle with 10,000 threads listed, 53–55 MiB without it (bench/threadList.ts). Measured
// without it: a streamed turn is cheaper (120–130 ms CPU against 200–240, bench/turnStream.ts), 10,000
// fuzzed messages take as long (bench/fuzz.mjs). But pure computation in JavaScript, such as ranking
// 100,000 paths against a query, runs 4–8× slower unoptimized (bench/fuzzyFileSearch.ts): such work
// turns the compiler on while it runs, and what it optimized stays optimized. The flag is V8's own,
// so it is flipped at run time (a command-line flag would cost Node its built-in code cache). The
// launcher turns it off once the server has started (any flag change before that costs the built-ins
// loaded after it their code cache, too); the state lives on the process, since the launcher and the
// core are separate bundles.
import { setV8Flag } from './v8Flags';

interface CompilerState {
  skipped: boolean;
  running: number;
}

const state: CompilerState = ((globalThis as Record<symbol, CompilerState | undefined>)[
  Symbol.for('threadline.optimizingCompiler')
] ??= { skipped: false, running: 0 });

export function skipOptimizingCompiler(): void {
  setV8Flag('--no-opt');
  state.skipped = true;
}

/** Runs CPU-bound work with the optimizing compiler on (it is off again once no such work runs). */
export function optimized<T>(work: () => T): T {
  if (!state.skipped) return work();
  if (state.running++ === 0) setV8Flag('--opt');
  try {
    return work();
  } finally {
    if (--state.running === 0) setV8Flag('--no-opt');
  }
}
