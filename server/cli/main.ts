// Entry point of `threadline` (dist/server.js). Kept tiny so `--version` and `--help` answer without
// loading the server; each subcommand is imported only when it runs.
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
    case 'app-server':
      process.stderr.write('threadline: the app-server is not built yet\n');
      return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `threadline: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
