// Drives the built server (dist/server.js) as a child process over real stdio, the way the extension
// does. Every message the server sends is kept and checked against the reference schema.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { serverBundle } from './paths';
import { MessageLog, type Incoming } from './messageLog';
import { tempDir } from './tempDirs';
import { underWine } from './underWine';
import { wineStdioChild } from '../wine/stdioBridge';

export interface StartOptions {
  home?: string;
  args?: string[];
  env?: Record<string, string>;
  /** Another build of the server (default: dist/server.js). */
  bundle?: string;
  /** A program the server runs under, with its arguments (such as bwrap's), before `node`. */
  launcher?: string[];
}

// Most suites import it from here.
export { tempDir };

export class ServerProcess extends MessageLog {
  private stdoutTail = '';
  stderr = '';
  /** The answer to `initialize`, when a helper made the handshake. */
  initializeResult: Record<string, unknown> | undefined;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly home: string,
  ) {
    super((text) => child.stdin.write(text));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (this.stderr += chunk));
    child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  static start(options: StartOptions = {}): ServerProcess {
    const home = options.home ?? tempDir();
    if (underWine()) return new ServerProcess(startUnderWine(home, options), home);
    const [program, ...before] = [...(options.launcher ?? []), process.execPath];
    const args = [...before, options.bundle ?? serverBundle, 'app-server', ...(options.args ?? [])];
    const child = spawn(program!, args, {
      // No Codex history unless a test gives one: a developer's own ~/.codex stays out of the tests.
      env: {
        ...process.env,
        THREADLINE_HOME: home,
        THREADLINE_LOG: 'debug',
        CODEX_HOME: join(home, 'no-codex-history'),
        ...options.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new ServerProcess(child, home);
  }

  /** Starts a server and completes the handshake. */
  static async started(options: StartOptions & { experimentalApi?: boolean } = {}): Promise<ServerProcess> {
    const server = ServerProcess.start(options);
    server.initializeResult = await server.initialize({ experimentalApi: options.experimentalApi ?? false });
    return server;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async stop(): Promise<void> {
    if (this.alive) {
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
      await this.exited;
      clearTimeout(timer);
    }
    this.assertSchemaClean();
  }

  private onStdout(chunk: string): void {
    const lines = (this.stdoutTail + chunk).split('\n');
    this.stdoutTail = lines.pop() ?? '';
    for (const line of lines) {
      if (line.length === 0) continue;
      let message: Incoming;
      try {
        message = JSON.parse(line) as Incoming;
      } catch {
        throw new Error(`server wrote a line that is not JSON to stdout: ${line.slice(0, 200)}`);
      }
      this.receive(message);
    }
  }
}

/** The server under Wine, with the same stdio (see test/wine/stdioBridge.ts). */
function startUnderWine(home: string, options: StartOptions): ChildProcessWithoutNullStreams {
  if (options.launcher) throw new Error('a launcher cannot wrap the server under Wine');
  const env = { THREADLINE_LOG: 'debug', ...options.env };
  return wineStdioChild({ home, env, args: options.args ?? [], bundle: options.bundle });
}

/** Inside a describe: a function that starts initialized servers, each stopped and schema-checked after its test. */
export function useServers(): (
  home?: string,
  name?: string,
  env?: Record<string, string>,
  options?: { experimentalApi?: boolean },
) => Promise<ServerProcess> {
  const servers: ServerProcess[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
  });
  return async (home, name = 'threadline_vscode', env, options = {}) => {
    const server = ServerProcess.start({ ...(home ? { home } : {}), ...(env ? { env } : {}) });
    servers.push(server);
    server.initializeResult = await server.initialize({ name, ...options });
    return server;
  };
}
