// The composition root of `threadline app-server`: resolves the home directory, builds the
// services and the method table, and serves them on the requested transport until it closes.
import { rm } from 'node:fs/promises';
import { resolveHome } from './config/home';
import { sessionFlagsTable } from './config/sessionFlags';
import { collectWhenIdle } from './idleCollection';
import { createLogger, parseLogLevel, RecentLines, stderrSink, type Logger } from './log';
import { createDispatcher } from './rpc/dispatcher';
import { parseListenUrl, serveStdio, type Listening } from './rpc/listen';
import { generateToken, readTokenFile, redacting, writeTokenFile } from './rpc/listenerToken';
import type { Dispatch } from './rpc/clientConnection';
import { methodHandlers } from './methods';
import { toRpcError } from './methods/storeErrors';
import { Services } from './services';

export interface AppServerOptions {
  listen: string;
  allowRemote: boolean;
  allowOrigins: string[];
  authTokenFile: string | null;
  configOverrides: string[];
}

/**
 * `started` runs once, when the server has answered its first handshake (a WebSocket server: once
 * it listens), before anything else it does after that.
 */
export async function runAppServer(
  options: AppServerOptions,
  started: () => void = () => {},
): Promise<number> {
  const target = parseListenUrl(options.listen);
  const token = target.kind === 'ws' ? listenerToken(options) : null;
  const recentLog = new RecentLines();
  const sink = recentLog.tee(stderrSink());
  const log = createLogger(
    parseLogLevel(process.env.THREADLINE_LOG),
    token === null ? sink : redacting(token, sink),
  );
  keepRunningOnStrayErrors(log);
  const flags = await sessionFlagsTable(options.configOverrides);
  const services = new Services(resolveHome(), log, recentLog, flags);
  // Watching for idle time waits too: its V8 and timing modules are not needed to answer.
  let stopCollecting = () => {};
  services.afterStart(() => {
    started();
    stopCollecting = collectWhenIdle(log);
  });
  const dispatch = createDispatcher(methodHandlers(services), log, toRpcError);
  const listening = await listen(target, { ...options, token }, dispatch, services, log);
  const stop = () => void listening.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await listening.closed;
  stopCollecting();
  await services.close();
  log.info('server stopped');
  return 0;
}

/** The WebSocket listener's token: the user's (--auth-token-file), else one made for this start. */
function listenerToken(options: AppServerOptions): string {
  if (options.authTokenFile !== null) return readTokenFile(options.authTokenFile);
  if (options.allowRemote) {
    throw new Error(
      '--allow-remote needs --auth-token-file: a remote client needs a token it was given, not one made at each start',
    );
  }
  return generateToken();
}

async function listen(
  target: ReturnType<typeof parseListenUrl>,
  options: AppServerOptions & { token: string | null },
  dispatch: Dispatch,
  services: Services,
  log: Logger,
): Promise<Listening> {
  const maxMessageBytes = Number(process.env.THREADLINE_MAX_MESSAGE_BYTES) || undefined;
  if (target.kind === 'stdio' || options.token === null) return serveStdio(dispatch, log, maxMessageBytes);
  const { serveWebSocket } = await import('./rpc/wsServer');
  const { allowRemote, allowOrigins, token } = options;
  const listening = await serveWebSocket(
    { ...target, allowRemote, allowOrigins, token, maxMessageBytes, isReady: () => services.ready },
    dispatch,
    log,
  );
  services.warmUp();
  const served = options.authTokenFile === null ? await handOver(token, services.home, listening) : listening;
  // Tests and scripts read the bound address (the port may have been 0) from this line.
  process.stderr.write(`threadline app-server listening on ${listening.url}\n`);
  return served;
}

/**
 * Gives a made token to local clients: a file only the user can read, in Threadline's home, which
 * sandboxed commands cannot see, removed when the listener closes; and one stderr line for a human
 * (written past the logger, so it is in no log a feedback bundle carries).
 */
async function handOver(token: string, home: string, listening: Listening): Promise<Listening> {
  const file = await writeTokenFile(home, Number(new URL(listening.url).port), token);
  process.stderr.write(
    `threadline app-server token: ${token} (also in ${file}; clients send "Authorization: Bearer <token>")\n`,
  );
  return { ...listening, closed: listening.closed.then(() => rm(file, { force: true })) };
}

// A bug in one request's handling must not take down every thread the server holds.
function keepRunningOnStrayErrors(log: Logger): void {
  process.on('uncaughtException', (error) =>
    log.error(`uncaught exception: ${error.stack ?? error.message}`),
  );
  process.on('unhandledRejection', (reason) =>
    log.error(
      `unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    ),
  );
}
