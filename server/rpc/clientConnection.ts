// One client of the server (the stdio peer or one WebSocket): its JSON-RPC connection, its
// handshake state and the notifications it opted out of.
import { createMessageConnection, ResponseError } from 'vscode-jsonrpc/node';
import type {
  Logger as RpcLogger,
  Message,
  MessageConnection,
  MessageReader,
  MessageWriter,
} from 'vscode-jsonrpc';
import type { NotificationMethod, NotificationParamsOf } from '../protocol/methods';
import type { Logger } from '../log';
import { Admission, IGNORED } from './admission';
import type { MalformedMessage } from './envelope';
import { ErrorCodes, RpcError } from './rpcError';
import { OutgoingRequests, type SentRequest } from './outgoingRequests';

export interface ReaderHooks {
  onMalformed: (error: MalformedMessage) => void;
  admit: (message: Message) => boolean;
  /** The client will send nothing more: answer what is in flight, then close. */
  onEnd: () => void;
}

export interface WriterHooks {
  observe: (message: Message) => void;
  onBackpressure: (blocked: boolean) => void;
  /** The transport gave up on a client that stopped reading, and closes; `reason` is for the log. */
  onOverflow: (reason: string) => void;
}

/** How a transport turns its byte stream or frames into JSON-RPC messages. */
export interface Transport {
  createReader(hooks: ReaderHooks): MessageReader & { pause?(): void; resume?(): void };
  createWriter(hooks: WriterHooks): MessageWriter;
  describe: string;
}

export interface ClientInfo {
  name: string;
  title?: string | null;
  version: string;
}

/** What request handlers may know about and do with the connection that sent a request. */
export interface Peer {
  readonly id: number;
  readonly initialized: boolean;
  readonly experimentalApi: boolean;
  readonly clientInfo: ClientInfo | undefined;
  completeHandshake(handshake: Handshake): void;
  notify<N extends NotificationMethod>(method: N, params: NotificationParamsOf<N>): void;
  /** Sends a server request; its id is known at once, its answer later. */
  request(method: string, params?: unknown): SentRequest;
  onClose(listener: () => void): void;
}

export interface Handshake {
  clientInfo: ClientInfo;
  experimentalApi: boolean;
  optOutNotificationMethods: readonly string[];
}

export type Dispatch = (peer: Peer, method: string, params: unknown) => Promise<unknown>;

let nextConnectionId = 1;

export class ClientConnection implements Peer {
  readonly id = nextConnectionId++;
  initialized = false;
  experimentalApi = false;
  clientInfo: ClientInfo | undefined;
  private optOut = new Set<string>();
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];
  private readonly connection: MessageConnection;
  private readonly writer: MessageWriter;
  private readonly outgoing: OutgoingRequests;

  constructor(transport: Transport, dispatch: Dispatch, log: Logger) {
    const admission = new Admission();
    this.outgoing = new OutgoingRequests((reason) => log.info(`connection ${this.id}: ${reason}`));
    const reject = (error: MalformedMessage) => {
      log.debug(`connection ${this.id}: ${error.message}`);
      this.writer.write(admission.rejection(error)).catch(() => {});
    };
    const reader = transport.createReader({
      onMalformed: reject,
      admit: (message) => {
        if (this.outgoing.isResponse(message)) {
          this.outgoing.settle(message);
          return false;
        }
        const error = admission.admit(message);
        if (error && error !== IGNORED) reject(error);
        return error === undefined;
      },
      onEnd: () => void admission.idle().then(() => this.close()),
    });
    // While the client is not reading our output we stop reading its requests, so it cannot make
    // more output wait; the transport bounds the rest (see Outbox).
    this.writer = transport.createWriter({
      observe: (message) => admission.settle(message),
      onBackpressure: (blocked) => (blocked ? reader.pause?.() : reader.resume?.()),
      onOverflow: (reason) => log.warn(`connection ${this.id}: disconnected: ${reason}`),
    });
    this.connection = createMessageConnection(reader, this.writer, rpcLogger(log, this.id));
    this.connection.onRequest((method, params) => this.handle(dispatch, method, params, log));
    this.connection.onNotification((method) => {
      if (method !== 'initialized') log.debug(`connection ${this.id}: ignored notification ${method}`);
    });
    this.connection.onClose(() => this.close());
    this.connection.onError(([error]) => log.warn(`connection ${this.id}: ${error.message}`));
    this.connection.listen();
    log.info(`connection ${this.id} opened (${transport.describe})`);
  }

  completeHandshake(handshake: Handshake): void {
    this.initialized = true;
    this.clientInfo = handshake.clientInfo;
    this.experimentalApi = handshake.experimentalApi;
    this.optOut = new Set(handshake.optOutNotificationMethods);
  }

  notify<N extends NotificationMethod>(method: N, params: NotificationParamsOf<N>): void {
    if (this.closed || !this.initialized || this.optOut.has(method)) return;
    this.connection.sendNotification(method, params).catch(() => {});
  }

  request(method: string, params?: unknown): SentRequest {
    const { sent, message } = this.outgoing.create(method, params);
    if (this.closed) this.outgoing.closeAll();
    else this.writer.write(message).catch(() => {});
    return sent;
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  private async handle(dispatch: Dispatch, method: string, params: unknown, log: Logger): Promise<unknown> {
    try {
      return await dispatch(this, method, params);
    } catch (error) {
      if (error instanceof RpcError) return new ResponseError(error.code, error.message, error.data);
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log.error(`connection ${this.id}: ${method} failed: ${detail}`);
      const message = error instanceof Error ? error.message : String(error);
      return new ResponseError(ErrorCodes.internalError, `Internal error in ${method}: ${message}`);
    }
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.outgoing.closeAll();
    this.connection.dispose();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

function rpcLogger(log: Logger, id: number): RpcLogger {
  return {
    error: (message) => log.warn(`connection ${id}: ${message}`),
    warn: (message) => log.warn(`connection ${id}: ${message}`),
    info: (message) => log.debug(`connection ${id}: ${message}`),
    log: (message) => log.trace(`connection ${id}: ${message}`),
  };
}
