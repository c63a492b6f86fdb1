// Entry point of `threadline` (dist/server.js), a small launcher: `--version` and `--help` answer
// without loading the server, which lives in dist/server-core.js.
import { resolveHome } from '../config/home';
import { parseArgs, usage } from './args';
import { setFlagsFromString } from 'node:v8';
import { loadCore } from './loadCore';

async function main(argv: string[]): Promise<number> {
  const parsed = parseArgs(argv);
  switch (parsed.kind) {
    case 'version':
      process.stdout.write(`threadline ${__THREADLINE_VERSION__}\n`);
      return 0;
    case 'help':
      process.stdout.write(usage());
      return 0;
    case 'error':
      process.stderr.write(`threadline: ${parsed.message}\n\n${usage()}`);
      return 2;
    case 'generate': {
      const { writeJsonSchema, writeTypeScript } = loadCore(resolveHome());
      const write = parsed.format === 'ts' ? writeTypeScript : writeJsonSchema;
      await write(parsed.out, { experimental: parsed.experimental });
      return 0;
    }
    case 'app-server': {
      keepYoungGenerationSmall();
      skipOptimizingCompiler();
      const { runAppServer } = loadCore(resolveHome());
      return runAppServer(parsed);
    }
  }
}

/**
 * V8 doubles the young generation under allocation pressure (up to 2 × 16 MiB) and never shrinks
 * it while the process idles, so one burst of traffic left a server holding 30 MiB of empty
 * semi-space for good. Semi-spaces that do not grow keep it at 2 MiB; the extra scavenges cost a
 * streamed turn nothing measurable (bench/turnStream.ts). A command-line flag would do the same,
 * but any V8 flag there makes Node reject its built-in code cache and start ~25 ms slower.
 */
function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * The server idles most of its life and its busy paths run in V8's built-ins (JSON, strings, I/O),
 * yet the optimizing compiler woke up for a few list calls and kept ~5 MiB of its own code and data:
 * 57–62 MiB idle with 10,000 threads listed, 53–55 MiB without it (bench/threadList.ts). Measured
 * without it: a streamed turn is cheaper (120–130 ms CPU against 200–240, bench/turnStream.ts), 10,000
 * fuzzed messages take as long (bench/fuzz.mjs); diffing a 20,000-line file by JS is ~1.5× slower.
 * A higher interrupt budget would be the gentler knob, but V8 reads it only at start-up, and any
 * flag on the command line costs Node its built-in code cache (see above).
 */
function skipOptimizingCompiler(): void {
  setFlagsFromString('--no-opt');
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`threadline: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
