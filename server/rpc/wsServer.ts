// The WebSocket listener: an HTTP server that upgrades to WebSocket and answers /healthz and /readyz.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Logger } from '../log';
import { ClientConnection, type Dispatch } from './clientConnection';
import { isLoopback, type Listening } from './listen';
import { DEFAULT_MAX_LINE_BYTES } from './ndjson';
import { DEFAULT_SOFT_BYTES, MiB } from './outbox';
import { spawnedPeer } from './spawnedPeer';
import { admitHandshake } from './wsAdmission';
import { wsTransport } from './wsTransport';

export interface WsOptions {
  host: string;
  port: number;
  allowRemote: boolean;
  /** Browser origins allowed to connect; any other handshake with an Origin is refused. */
  allowOrigins: readonly string[];
  /** The bearer token every handshake must carry (see listenerToken.ts). */
  token: string;
  maxMessageBytes?: number;
  /** Bytes of messages that may wait for a client that stopped reading before it is disconnected. */
  maxQueuedBytes?: number;
  isReady: () => boolean;
}

// A client that cannot take 8 MiB of messages (its deltas already joined into one per stream) is
// not reading; waiting longer would hold memory for it.
const DEFAULT_MAX_QUEUED_BYTES = 8 * MiB;

export async function serveWebSocket(
  options: WsOptions,
  dispatch: Dispatch,
  log: Logger,
): Promise<Listening> {
  if (!options.allowRemote && !isLoopback(options.host)) {
    throw new Error(
      `refusing to listen on non-loopback address ${options.host}: anyone who can reach it could drive the ` +
        'agent. Pass --allow-remote to do it anyway.',
    );
  }
  const http = createServer((request, response) => answerHttp(request, response, options.isReady));
  const wss = new WebSocketServer({
    server: http,
    maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_LINE_BYTES,
    verifyClient: ({ req }, answer) => {
      const { port } = http.address() as AddressInfo;
      const refuse = (status: 401 | 403, reason: string) => {
        log.warn(`refused a WebSocket handshake from ${req.socket.remoteAddress}: ${reason}`);
        answer(false, status, status === 401 ? 'Unauthorized' : 'Forbidden');
      };
      const admission = admitHandshake(req.headers, { ...options, port });
      if (!admission.ok) return refuse(admission.status, admission.reason);
      // Checked whatever the token: a process we started must not drive the server that confines it.
      spawnedPeer(req.socket).then(
        (reason) => (reason === null ? answer(true) : refuse(403, reason)),
        (error: Error) => refuse(403, `cannot tell who connected: ${error.message}`),
      );
    },
  });
  wss.on('connection', (socket, request) => {
    const remote = `${request.socket.remoteAddress}:${request.socket.remotePort}`;
    const limits = {
      softBytes: DEFAULT_SOFT_BYTES,
      hardBytes:
        options.maxQueuedBytes ??
        (Number(process.env.THREADLINE_CLIENT_QUEUE_BYTES) || DEFAULT_MAX_QUEUED_BYTES),
    };
    new ClientConnection(wsTransport(socket, request.socket, remote, limits), dispatch, log);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const closed = new Promise<void>((resolve) => http.once('close', () => resolve()));
  const close = async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
    http.close();
    await closed;
  };
  return { closed, close, url: `ws://${host}:${port}` };
}

function answerHttp(request: IncomingMessage, response: ServerResponse, isReady: () => boolean): void {
  const path = (request.url ?? '/').split('?')[0];
  if (path === '/healthz') return plain(response, 200, 'ok');
  if (path === '/readyz') return isReady() ? plain(response, 200, 'ready') : plain(response, 503, 'starting');
  plain(response, 426, 'Upgrade Required: connect with a WebSocket client');
}

function plain(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${body}\n`);
}
