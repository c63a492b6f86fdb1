// Entry point of `threadline` (dist/server.js), a small launcher: `--version` and `--help` answer
// without loading the server, which lives in dist/server-core.js.
import { resolveHome } from '../config/home';
import { parseArgs, usage } from './args';
import { setFlagsFromString } from 'node:v8';
import { loadCore } from './loadCore';
import { skipOptimizingCompiler } from '../optimizingCompiler';

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
      const { writeJsonSchema, writeTypeScript } = loadCore(resolveHome()).core;
      const write = parsed.format === 'ts' ? writeTypeScript : writeJsonSchema;
      await write(parsed.out, { experimental: parsed.experimental });
      return 0;
    }
    case 'app-server': {
      const { core, saveCache } = loadCore(resolveHome());
      // Until the server has started, V8 runs with Node's own flags: any change to them makes Node
      // turn down its code cache of every built-in loaded after it (crypto, net, streams, ...),
      // which then compile from source, and ours too.
      return core.runAppServer(parsed, () => {
        saveCache();
        keepYoungGenerationSmall();
        skipOptimizingCompiler();
      });
    }
  }
}

/**
 * V8 doubles the young generation under allocation pressure (up to 2 × 16 MiB) and never shrinks
 * it while the process idles, so one burst of traffic left a server holding 30 MiB of empty
 * semi-space for good. Semi-spaces that do not grow keep it at 2 MiB; the extra scavenges cost a
 * streamed turn nothing measurable (bench/turnStream.ts). A command-line flag would do the same,
 * but any V8 flag there makes Node reject its built-in code cache and start ~25 ms slower. Set once
 * the server has started: startup alone does not grow the young generation.
 */
function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
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
