// The built server listening on a WebSocket, and clients that speak to it frame by frame.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { serverBundle } from './paths';
import { MessageLog, type Incoming } from './messageLog';
import { tempDir } from './serverProcess';

export class WsClient extends MessageLog {
  private constructor(readonly socket: WebSocket) {
    super((text) => socket.send(text.replace(/\n$/, '')));
    socket.on('message', (data) => this.receive(JSON.parse(String(data)) as Incoming));
  }

  /** Connects with the server's bearer token (see startWsServer). */
  static async connect(url: string, token: string): Promise<WsClient> {
    const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new WsClient(socket);
  }

  close(): void {
    this.socket.close();
  }
}

export interface WsServer {
  url: string;
  http: string;
  child: ChildProcess;
  home: string;
  /** The token clients must send: the one the server made (printed on stderr), or the caller's. */
  token: string;
  /** Where the server wrote the token it made; null when given one with --auth-token-file. */
  tokenFile: string | null;
  stderr: () => string;
}

/** The address a server's stderr says it listens on, once it has said so. */
export const listeningUrl = (stderr: string) => /listening on (ws:\/\/\S+)/.exec(stderr)?.[1];

/** The token a server made and printed on stderr, and the file it also wrote it to. */
export function madeToken(stderr: string): { token: string; file: string } | null {
  const made = /token: (\S+) \(also in (.+?);/.exec(stderr);
  return made ? { token: made[1]!, file: made[2]! } : null;
}

export async function startWsServer(
  listen = 'ws://127.0.0.1:0',
  extraArgs: string[] = [],
  options: { home?: string; env?: Record<string, string> } = {},
): Promise<WsServer> {
  const home = options.home ?? tempDir();
  const child = spawn(process.execPath, [serverBundle, 'app-server', '--listen', listen, ...extraArgs], {
    // No Codex history unless a test gives one (never the developer's ~/.codex).
    env: {
      ...process.env,
      THREADLINE_HOME: home,
      CODEX_HOME: join(home, 'no-codex-history'),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line:\n${stderr}`)), 10_000);
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const url = listeningUrl(stderr);
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${stderr}`)));
  });
  const made = madeToken(stderr);
  const given = extraArgs.indexOf('--auth-token-file');
  const token = made?.token ?? (given >= 0 ? readFileSync(extraArgs[given + 1]!, 'utf8').trim() : '');
  const tokenFile = made?.file ?? null;
  return { url, http: url.replace(/^ws:/, 'http:'), child, home, token, tokenFile, stderr: () => stderr };
}

/** The status a raw WebSocket handshake with these headers gets: 101 when let in. */
export function handshake(url: string, headers: Record<string, string> = {}): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: hostname,
      port,
      path: '/',
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
        ...headers,
      },
    });
    req.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    req.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Stops the server (SIGTERM) and removes its home. */
export function stopWsServer(server: WsServer): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      rmSync(server.home, { recursive: true, force: true });
      resolve();
    };
    if (server.child.exitCode !== null) return done();
    server.child.once('exit', done);
    server.child.kill('SIGTERM');
  });
}
