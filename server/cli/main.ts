// Entry point of `threadline` (dist/server.js). `--version` and `--help` answer without running
// any server code; each command's modules are evaluated only when that command runs.
import { parseArgs, usage } from './args';

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
      const { writeJsonSchema, writeTypeScript } = await import('../protocol/generate');
      const write = parsed.format === 'ts' ? writeTypeScript : writeJsonSchema;
      await write(parsed.out, { experimental: parsed.experimental });
      return 0;
    }
    case 'app-server': {
      const { runAppServer } = await import('../app');
      return runAppServer({ listen: parsed.listen, allowRemote: parsed.allowRemote });
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
