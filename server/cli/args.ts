// Command-line parsing for `threadline`, pure so it can be tested without spawning a process.
export type ParsedArgs =
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'app-server'; listen: string };

export function usage(): string {
  return `Usage: threadline <command> [options]

Commands:
  app-server [--listen URL]   Serve the Codex app-server protocol (JSON-RPC, one message per line).
                              URL is stdio:// (default) or ws://IP:PORT.

Options:
  -h, --help                  Show this help.
  -v, --version               Print the version.
`;
}

export function parseArgs(argv: string[]): ParsedArgs {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  if (argv.includes('--version') || argv.includes('-v')) return { kind: 'version' };
  const [command, ...rest] = argv;
  if (command !== 'app-server') return { kind: 'error', message: `unknown command '${command}'` };
  let listen = 'stdio://';
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--listen') {
      const value = rest[++i];
      if (value === undefined) return { kind: 'error', message: '--listen needs a URL' };
      listen = value;
    } else if (arg?.startsWith('--listen=')) {
      listen = arg.slice('--listen='.length);
    } else {
      return { kind: 'error', message: `unknown option '${arg}'` };
    }
  }
  return { kind: 'app-server', listen };
}
