// The composition root of `threadline app-server`: resolves the home directory, builds the
// services and the method table, and serves them on the requested transport until it closes.
import { readFileSync } from 'node:fs';
import { resolveHome } from './config/home';
import { sessionFlagsTable } from './config/sessionFlags';
import { collectWhenIdle } from './idleCollection';
import { createLogger, parseLogLevel, RecentLines, stderrSink, type Logger } from './log';
import { createDispatcher } from './rpc/dispatcher';
import { parseListenUrl, serveStdio, type Listening } from './rpc/listen';
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
  const recentLog = new RecentLines();
  const log = createLogger(parseLogLevel(process.env.THREADLINE_LOG), recentLog.tee(stderrSink()));
  const target = parseListenUrl(options.listen);
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
  const listening = await listen(target, options, dispatch, services, log);
  const stop = () => void listening.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await listening.closed;
  stopCollecting();
  await services.close();
  log.info('server stopped');
  return 0;
}

async function listen(
  target: ReturnType<typeof parseListenUrl>,
  options: AppServerOptions,
  dispatch: Dispatch,
  services: Services,
  log: Logger,
): Promise<Listening> {
  const maxMessageBytes = Number(process.env.THREADLINE_MAX_MESSAGE_BYTES) || undefined;
  if (target.kind === 'stdio') return serveStdio(dispatch, log, maxMessageBytes);
  const { serveWebSocket } = await import('./rpc/wsServer');
  const { allowRemote, allowOrigins, authTokenFile } = options;
  const token = authTokenFile === null ? null : readToken(authTokenFile);
  const listening = await serveWebSocket(
    { ...target, allowRemote, allowOrigins, token, maxMessageBytes, isReady: () => services.ready },
    dispatch,
    log,
  );
  services.warmUp();
  // Tests and scripts read the bound address (the port may have been 0) from this line.
  process.stderr.write(`threadline app-server listening on ${listening.url}\n`);
  return listening;
}

function readToken(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read --auth-token-file ${file}: ${(error as Error).message}`, { cause: error });
  }
  const token = text.split(/\r?\n/, 1)[0]!.trim();
  if (token.length < 16)
    throw new Error(`--auth-token-file ${file}: the token's first line needs 16 characters or more`);
  return token;
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
