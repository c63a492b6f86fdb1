// One JSON-RPC message per WebSocket text frame, for clients that connect over --listen ws://.
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { AbstractMessageReader, AbstractMessageWriter, Disposable } from 'vscode-jsonrpc';
import type { DataCallback, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc';
import { decodeMessage } from './envelope';
import { MiB, Outbox, type OutboxLimits } from './outbox';
import { tickBatcher } from './tickBatch';
import type { ReaderHooks, Transport, WriterHooks } from './clientConnection';

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
  private readonly outbox: Outbox;

  constructor(
    private readonly socket: WebSocket,
    tcp: Duplex,
    private readonly hooks: WriterHooks,
    limits: OutboxLimits,
  ) {
    super();
    // ws corks its socket around each frame only; corking across the tick batches the frames too.
    const batch = tickBatcher(tcp);
    const sink = {
      buffered: () => socket.bufferedAmount,
      send: (text: string, written: () => void) => {
        batch();
        socket.send(text, written);
      },
    };
    this.outbox = new Outbox(sink, limits, {
      onBlocked: (blocked) => hooks.onBackpressure(blocked),
      onOverflow: (bytes) => {
        hooks.onOverflow(
          `the client is not reading: ${(bytes / MiB).toFixed(1)} MiB of messages waited for it ` +
            `(the limit is ${((limits.hardBytes ?? 0) / MiB).toFixed(1)} MiB)`,
        );
        // Not a closing handshake: the client would not read it either, and the memory goes now.
        socket.terminate();
      },
    });
  }

  write(message: Message): Promise<void> {
    this.hooks.observe(message);
    if (this.socket.readyState !== this.socket.OPEN) return Promise.resolve();
    try {
      this.outbox.push(message);
    } catch (error) {
      this.fireError(error, message);
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  end(): void {
    this.socket.close();
  }
}

/** `tcp`: the connection the WebSocket runs on. */
export function wsTransport(socket: WebSocket, tcp: Duplex, remote: string, limits: OutboxLimits): Transport {
  return {
    describe: `websocket ${remote}`,
    createReader: (hooks) => new WsMessageReader(socket, hooks),
    createWriter: (hooks) => new WsMessageWriter(socket, tcp, hooks, limits),
  };
}
