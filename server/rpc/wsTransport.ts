// One JSON-RPC message per WebSocket text frame, for clients that connect over --listen ws://.
import type { WebSocket } from 'ws';
import { AbstractMessageReader, AbstractMessageWriter, Disposable } from 'vscode-jsonrpc';
import type { DataCallback, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc';
import { decodeMessage, encodeMessage } from './envelope';
import type { ReaderHooks, Transport, WriterHooks } from './clientConnection';

const HIGH_WATER_BYTES = 8 * 1024 * 1024;

class WsMessageReader extends AbstractMessageReader implements MessageReader {
  constructor(
    private readonly socket: WebSocket,
    private readonly hooks: ReaderHooks,
  ) {
    super();
    socket.on('close', () => this.fireClose());
    socket.on('error', (error) => this.fireError(error));
  }

  listen(callback: DataCallback): Disposable {
    const onMessage = (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      if (isBinary) {
        return this.hooks.onMalformed({
          code: -32600,
          message: 'Invalid request: send text frames',
          id: null,
        });
      }
      const decoded = decodeMessage(Array.isArray(data) ? Buffer.concat(data).toString() : data.toString());
      if (!decoded.ok) return this.hooks.onMalformed(decoded.error);
      if (!this.hooks.admit(decoded.message)) return;
      try {
        callback(decoded.message);
      } catch (error) {
        this.fireError(error);
      }
    };
    this.socket.on('message', onMessage);
    return Disposable.create(() => this.socket.off('message', onMessage));
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }
}

class WsMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private blocked = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly hooks: WriterHooks,
  ) {
    super();
  }

  write(message: Message): Promise<void> {
    this.hooks.observe(message);
    if (this.socket.readyState !== this.socket.OPEN) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.send(encodeMessage(message), () => {
        if (this.blocked && this.socket.bufferedAmount < HIGH_WATER_BYTES / 2) {
          this.blocked = false;
          this.hooks.onBackpressure(false);
        }
        resolve();
      });
      if (!this.blocked && this.socket.bufferedAmount > HIGH_WATER_BYTES) {
        this.blocked = true;
        this.hooks.onBackpressure(true);
      }
    });
  }

  end(): void {
    this.socket.close();
  }
}

export function wsTransport(socket: WebSocket, remote: string): Transport {
  return {
    describe: `websocket ${remote}`,
    createReader: (hooks) => new WsMessageReader(socket, hooks),
    createWriter: (hooks) => new WsMessageWriter(socket, hooks),
  };
}
