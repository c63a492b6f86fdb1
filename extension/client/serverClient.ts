// The extension's side of the app-server: launches it, speaks JSON-RPC over its stdio (with the
// server's own newline framing), and keeps it alive. No `vscode` import: the editor layer passes in
// how to launch and where to log, so this core is tested against the real server in plain Node.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  createMessageConnection,
  ResponseError,
  type Message,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { ClientMethod, ParamsOf, ResultOf } from '../../server/protocol/methods';
import {
  checkNotification,
  isNotificationMethod,
  notificationProblem,
} from '../../server/protocol/notificationCheck';
import type { ServerNotification } from '../../server/protocol/notificationRoutes';
import type { RequestId } from '../../server/protocol/serverRequests';
import { NdjsonMessageReader, NdjsonMessageWriter } from '../../server/rpc/ndjson';
import { Emitter } from '../../webview/common/emitter';
import { toDisposable, type IDisposable } from '../../webview/common/lifecycle';
import { retryOverloaded } from './backoff';
import { redactText } from './redact';
import { RestartPolicy } from './restartPolicy';

export type ServerState = 'stopped' | 'starting' | 'ready' | 'restarting' | 'failed';

export interface ServerLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface ClientLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** A line the server wrote to stderr. */
  server(line: string): void;
}

/** `id` is the request's JSON-RPC id: `serverRequest/resolved` names a request by it. */
export type ServerRequestHandler = (params: unknown, id: RequestId) => Promise<unknown>;

export type TraceDirection = 'send' | 'receive';

export interface ServerClientOptions {
  launch: () => ServerLaunch;
  clientInfo: { name: string; title: string; version: string };
  log: ClientLog;
  /** Sees every JSON-RPC message in both directions (the editor layer decides whether to log it). */
  trace?: (direction: TraceDirection, message: Message) => void;
  policy?: RestartPolicy;
}

interface Running {
  child: ChildProcessWithoutNullStreams;
  connection: MessageConnection;
  ready: Promise<ResultOf<'initialize'>>;
  /** Fails `ready` with the reason the server went away before the handshake finished. */
  abort: (error: Error) => void;
  /** The last line it wrote to stderr: often why it exited (a config it refuses, say). */
  lastWords: { line?: string };
}

export class ServerClient {
  state: ServerState = 'stopped';
  /** Why the server is in the failed state. */
  failure: string | undefined;
  private running: Running | undefined;
  private disposed = false;
  private readonly pending = new Set<(error: Error) => void>();
  private readonly policy: RestartPolicy;
  private readonly stateChanged = new Emitter<{ state: ServerState; detail: string | undefined }>();
  private readonly notified = new Emitter<ServerNotification>();
  private readonly restarted = new Emitter<void>();
  /** Methods whose malformed notifications were logged already: one line each, not one per delta. */
  private readonly malformed = new Set<string>();
  /** Handlers for requests the server sends (approvals, questions); anything else gets -32601. */
  private readonly serverRequests = new Map<string, ServerRequestHandler>();

  constructor(private readonly options: ServerClientOptions) {
    this.policy = options.policy ?? new RestartPolicy();
  }

  get pid(): number | undefined {
    return this.running?.child.pid;
  }

  onStateChange(listener: (state: ServerState, detail: string | undefined) => void): IDisposable {
    return this.stateChanged.event(({ state, detail }) => listener(state, detail));
  }

  /**
   * Every notification of a method this build knows whose params match its schema; others are
   * dropped here (a malformed one is logged), so listeners read typed params without guards.
   */
  readonly onNotification = this.notified.event;

  /** After a restart the server comes back empty: listeners re-open what they had open. */
  readonly onRestarted = this.restarted.event;

  /** One handler per server-request method; a second registration for the same method is a bug. */
  handleServerRequest(method: string, handler: ServerRequestHandler): IDisposable {
    if (this.serverRequests.has(method)) throw new Error(`${method} already has a handler`);
    this.serverRequests.set(method, handler);
    return toDisposable(() => {
      if (this.serverRequests.get(method) === handler) this.serverRequests.delete(method);
    });
  }

  /** Starts the server if it is not running and resolves once it has answered initialize. */
  start(): Promise<ResultOf<'initialize'>> {
    if (this.disposed) return Promise.reject(new Error('Threadline is shutting down'));
    // After a crash loop only an explicit restart tries again, so a failing server is not relaunched
    // by every view that asks it something.
    if (this.state === 'failed' && !this.running)
      return Promise.reject(new Error(`Threadline's server has stopped: ${this.failure ?? 'it failed'}`));
    this.running ??= this.launch();
    return this.running.ready;
  }

  /** Sends a request (starting the server on first use); overloaded answers are retried with backoff. */
  async request<M extends ClientMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    await this.start();
    return retryOverloaded(() => this.send(method, params) as Promise<ResultOf<M>>);
  }

  /** A restart the user (or a changed setting) asked for: the crash budget starts afresh. */
  async restart(): Promise<void> {
    this.policy.reset();
    await this.stop();
    await this.start();
    this.restarted.fire();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.stop();
    this.stateChanged.dispose();
    this.notified.dispose();
    this.restarted.dispose();
  }

  private send(method: string, params: unknown): Promise<unknown> {
    const running = this.running;
    if (!running) return Promise.reject(new Error(`Threadline's server is not running (${method})`));
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      this.pending.add(fail);
      running.connection.sendRequest(method, params).then(
        (result) => {
          this.pending.delete(fail);
          resolve(result);
        },
        (error: unknown) => {
          this.pending.delete(fail);
          reject(error);
        },
      );
    });
  }

  private launch(): Running {
    const { command, args, env } = this.options.launch();
    this.setState(this.state === 'restarting' ? 'restarting' : 'starting');
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const trace = this.options.trace;
    // vscode-jsonrpc hands request handlers the params but not the id; the reader sees each request
    // first, and the handler receives that same params object, so the id is looked up by it.
    const ids = new WeakMap<object, RequestId>();
    const connection = createMessageConnection(
      new NdjsonMessageReader(child.stdout, {
        admit: (message) => {
          trace?.('receive', message);
          const request = message as { id?: unknown; method?: unknown; params?: unknown };
          if (typeof request.method === 'string' && isRequestId(request.id) && isObject(request.params))
            ids.set(request.params, request.id);
          return true;
        },
      }),
      new NdjsonMessageWriter(child.stdin, { observe: trace && ((message) => trace('send', message)) }),
    );
    const lastWords: Running['lastWords'] = {};
    this.wire(child, connection, ids, lastWords);
    connection.listen();
    let abort: (error: Error) => void = () => {};
    const aborted = new Promise<never>((_, reject) => (abort = reject));
    const handshake = connection.sendRequest('initialize', {
      clientInfo: this.options.clientInfo,
      capabilities: { experimentalApi: true },
    }) as Promise<ResultOf<'initialize'>>;
    const ready = Promise.race([handshake, aborted]).then((result) => {
      connection.sendNotification('initialized');
      this.setState('ready');
      return result;
    });
    ready.catch(() => {});
    return { child, connection, ready, abort, lastWords };
  }

  private wire(
    child: ChildProcessWithoutNullStreams,
    connection: MessageConnection,
    ids: WeakMap<object, RequestId>,
    lastWords: Running['lastWords'],
  ): void {
    const { log } = this.options;
    child.stderr.setEncoding('utf8');
    let partial = '';
    child.stderr.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines.filter((l) => l.trim())) {
        log.server(line);
        lastWords.line = line;
      }
    });
    child.stdin.on('error', () => {});
    child.on('error', (error) => {
      log.error(`cannot start the Threadline server: ${error.message}`);
      this.exited(child, null, null);
    });
    child.on('exit', (code, signal) => this.exited(child, code, signal));
    connection.onNotification((method, params) => this.notify(method, params));
    connection.onRequest(async (method, params) => {
      const handler = this.serverRequests.get(method);
      const id = isObject(params) ? ids.get(params) : undefined;
      if (handler && id !== undefined) return handler(params, id);
      // Answering keeps the turn moving; silence would leave it waiting forever.
      if (handler) return new ResponseError(-32602, `${method} needs an object of params`);
      log.warn(`the server asked for ${method}, which this version of Threadline does not handle`);
      return new ResponseError(-32601, `Threadline does not handle ${method} yet`);
    });
  }

  private exited(child: ChildProcessWithoutNullStreams, code: number | null, signal: string | null): void {
    const running = this.running;
    if (running?.child !== child) return;
    this.running = undefined;
    const how = signal
      ? `was killed by ${signal}`
      : code === null
        ? 'could not start'
        : `exited with code ${code}`;
    const error = new Error(`Threadline's server ${how} before answering`);
    running.abort(error);
    running.connection.dispose();
    for (const reject of [...this.pending]) reject(error);
    this.pending.clear();
    if (this.disposed || this.state === 'stopped') return;
    this.options.log.warn(`Threadline's server ${how}`);
    if (!this.policy.allow(Date.now())) {
      const said = running.lastWords.line;
      const why = said ? ` Its last words: ${redactText(said.trim()).slice(0, 300)}` : '';
      this.setState('failed', `The server ${how} repeatedly; it was not restarted.${why}`);
      return;
    }
    this.setState('restarting');
    this.start().then(
      () => this.restarted.fire(),
      (failure: Error) => this.options.log.error(`restart failed: ${failure.message}`),
    );
  }

  private async stop(): Promise<void> {
    const running = this.running;
    this.setState('stopped');
    if (!running) return;
    const exited = new Promise<void>((resolve) => running.child.once('exit', () => resolve()));
    running.child.stdin.end();
    const timer = setTimeout(() => running.child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  }

  private setState(state: ServerState, detail?: string): void {
    if (this.state === state && detail === undefined) return;
    this.state = state;
    this.failure = state === 'failed' ? detail : undefined;
    this.stateChanged.fire({ state, detail });
  }

  private notify(method: string, params: unknown): void {
    const notification = checkNotification(method, params);
    if (notification) return this.notified.fire(notification);
    // Methods this build does not know are expected (the protocol grows); a known one that does not
    // match its schema is a server bug worth one line.
    if (!isNotificationMethod(method) || this.malformed.has(method)) return;
    this.malformed.add(method);
    this.options.log.warn(`ignoring malformed notifications: ${notificationProblem(method, params)}`);
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number';
}
