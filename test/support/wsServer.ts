// The built server listening on a WebSocket, and clients that speak to it frame by frame.
import { spawn, type ChildProcess } from 'node:child_process';
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

  static async connect(url: string): Promise<WsClient> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new WsClient(socket);
  }

  close(): void {
    this.socket.close();
  }
}

export async function startWsServer(
  listen = 'ws://127.0.0.1:0',
  extraArgs: string[] = [],
  options: { home?: string; env?: Record<string, string> } = {},
): Promise<{ url: string; http: string; child: ChildProcess; home: string; stderr: () => string }> {
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
      const match = /listening on (ws:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${stderr}`)));
  });
  return { url, http: url.replace(/^ws:/, 'http:'), child, home, stderr: () => stderr };
}
