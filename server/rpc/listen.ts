// Starts the transport named by --listen: stdio (one client for the life of the process) or a
// WebSocket server on a loopback address (any number of clients, each with its own handshake).
import type { Logger } from '../log';
import { ClientConnection, type Dispatch } from './clientConnection';
import { stdioTransport } from './stdioTransport';

export type ListenTarget = { kind: 'stdio' } | { kind: 'ws'; host: string; port: number };

export function parseListenUrl(url: string): ListenTarget {
  if (url === 'stdio://' || url === 'stdio') return { kind: 'stdio' };
  const match = /^ws:\/\/(\[[0-9a-fA-F:]+\]|[^:/]+):(\d{1,5})\/?$/.exec(url);
  if (!match) throw new Error(`cannot listen on '${url}': expected stdio:// or ws://IP:PORT`);
  const port = Number(match[2]);
  if (port > 65535) throw new Error(`cannot listen on '${url}': port out of range`);
  return { kind: 'ws', host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface Listening {
  /** Resolves when the transport is closed: stdin ended, or the WebSocket server stopped. */
  closed: Promise<void>;
  close(): Promise<void>;
  url: string;
}

export function serveStdio(dispatch: Dispatch, log: Logger, maxLineBytes?: number): Listening {
  const connection = new ClientConnection(stdioTransport(maxLineBytes), dispatch, log);
  // However the connection ends (input closed, or output broken because the client is gone), stop
  // reading too, so nothing keeps the process alive once the server has shut down.
  const closed = new Promise<void>((resolve) =>
    connection.onClose(() => {
      process.stdin.destroy();
      resolve();
    }),
  );
  // Closing stops reading; requests already received are still answered before the connection closes.
  const close = () => {
    process.stdin.destroy();
    return closed;
  };
  return { closed, url: 'stdio://', close };
}
