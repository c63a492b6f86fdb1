// Entry point of `threadline` (dist/server.js), a small launcher: `--version` and `--help` answer
// without loading the server, which lives in dist/server-core.js.
import { resolveHome } from '../config/home';
import { parseArgs, usage } from './args';
import { loadCore } from './loadCore';
import { setRunningFlags, setStartupFlags } from './startupFlags';

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
      const { writeJsonSchema, writeTypeScript } = loadCore(resolveHome()).core.schemaWriters();
      const write = parsed.format === 'ts' ? writeTypeScript : writeJsonSchema;
      await write(parsed.out, { experimental: parsed.experimental });
      return 0;
    }
    case 'app-server': {
      setStartupFlags();
      const { core, saveCache } = loadCore(resolveHome());
      const code = await core.runAppServer(parsed, () => {
        saveCache();
        setRunningFlags();
      });
      // A server that stopped before it had started (its input ended right after the handshake)
      // still leaves the cache: the flags are the ones the core loaded under.
      saveCache();
      return code;
    }
  }
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
