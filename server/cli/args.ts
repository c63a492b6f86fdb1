// Command-line parsing for `threadline`, pure so it can be tested without spawning a process.
export type ParsedArgs =
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | {
      kind: 'app-server';
      listen: string;
      allowRemote: boolean;
      allowOrigins: string[];
      authTokenFile: string | null;
      /** `-c key=value`, in order. */
      configOverrides: string[];
    }
  | { kind: 'generate'; format: 'json-schema' | 'ts'; out: string; experimental: boolean };

export function usage(): string {
  return `Usage: threadline app-server [options]
       threadline app-server generate-json-schema --out DIR [--experimental]
       threadline app-server generate-ts --out DIR [--experimental]

Serves the Codex app-server protocol: JSON-RPC 2.0, one message per line.

Options:
  --listen URL        stdio:// (default) or ws://IP:PORT (one message per text frame;
                      GET /healthz and /readyz answer on the same port)
  --allow-remote      allow --listen on an address other than loopback (needs --auth-token-file)
  --auth-token-file F every WebSocket client must send "Authorization: Bearer <token>", the
                      token being the first line of F. Without it, each start makes a token,
                      prints it once on stderr and writes it to
                      $THREADLINE_HOME/listeners/ws-PORT.token (removed when the server stops)
  --allow-origin O    let browser pages from origin O (e.g. https://app.example) connect over
                      WebSocket; any other handshake with an Origin header is refused (repeatable)
  -c, --config K=V    override a config.toml key for this run (V is a TOML value, else a string),
                      above config.toml and project files; repeatable
  --out DIR           where generate-json-schema / generate-ts write their files
  --experimental      include experimental methods and fields in generated output
  -h, --help          show this help
  -v, --version       print the version

Environment:
  THREADLINE_HOME     where threads and settings live (default ~/.threadline)
  THREADLINE_LOG      stderr log level: error, warn, info (default), debug, trace
`;
}

interface Flags {
  listen: string;
  allowRemote: boolean;
  allowOrigins: string[];
  authTokenFile: string | null;
  configOverrides: string[];
  out: string | undefined;
  experimental: boolean;
}

const VALUED = new Set(['--listen', '--out', '--allow-origin', '--auth-token-file', '-c', '--config']);

function parseFlags(rest: string[]): Flags | string {
  const flags: Flags = {
    listen: 'stdio://',
    allowRemote: false,
    allowOrigins: [],
    authTokenFile: null,
    configOverrides: [],
    out: undefined,
    experimental: false,
  };
  for (let i = 0; i < rest.length; i++) {
    const [name, inline] = rest[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? rest[++i];
    if (VALUED.has(name)) {
      const v = value();
      if (v === undefined || v === '') return `${name} needs a value`;
      if (name === '--listen') flags.listen = v;
      else if (name === '--out') flags.out = v;
      else if (name === '--allow-origin') flags.allowOrigins.push(v);
      else if (name === '-c' || name === '--config') flags.configOverrides.push(v);
      else flags.authTokenFile = v;
    } else if (name === '--allow-remote' && inline === undefined) {
      flags.allowRemote = true;
    } else if (name === '--experimental' && inline === undefined) {
      flags.experimental = true;
    } else {
      return `unknown option '${rest[i]}'`;
    }
  }
  return flags;
}

export function parseArgs(argv: string[]): ParsedArgs {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  if (argv.includes('--version') || argv.includes('-v')) return { kind: 'version' };
  const [command, ...rest] = argv;
  if (command !== 'app-server') return { kind: 'error', message: `unknown command '${command}'` };
  const generator =
    rest[0] === 'generate-json-schema' ? 'json-schema' : rest[0] === 'generate-ts' ? 'ts' : undefined;
  const flags = parseFlags(generator ? rest.slice(1) : rest);
  if (typeof flags === 'string') return { kind: 'error', message: flags };
  if (generator) {
    if (flags.out === undefined) return { kind: 'error', message: `${rest[0]} needs --out DIR` };
    return { kind: 'generate', format: generator, out: flags.out, experimental: flags.experimental };
  }
  if (flags.out !== undefined || flags.experimental) {
    return {
      kind: 'error',
      message: '--out and --experimental belong to generate-json-schema / generate-ts',
    };
  }
  const { listen, allowRemote, allowOrigins, authTokenFile, configOverrides } = flags;
  return { kind: 'app-server', listen, allowRemote, allowOrigins, authTokenFile, configOverrides };
}
