// The extension's one connection to the app-server, shared by every part of the UI (the Threads tree,
// the conversation view, approvals). Created in activate, launched lazily on the first request, disposed
// with the extension. Calls and notifications are typed by server/protocol.
import type { Static } from '@sinclair/typebox';
import * as vscode from 'vscode';
import type {
  ClientMethod,
  NotificationMethod,
  NotificationParamsOf,
  ParamsOf,
  ResultOf,
} from '../../server/protocol/methods';
import { isNotification, type ServerNotification } from '../../server/protocol/notificationRoutes';
import type {
  RequestId,
  ServerRequestMethod,
  ServerRequestParamsOf,
  serverRequests,
} from '../../server/protocol/serverRequests';
import { Emitter, type Event } from '../../webview/common/emitter';
import { Disposable, type IDisposable } from '../../webview/common/lifecycle';
import { RefCounts } from '../../webview/common/refCounts';
import { ServerClient, type ServerState } from '../client/serverClient';
import { UnwrittenThreads, type OpenedSession } from '../client/unwrittenThreads';
import { onSettingsChanged, readLaunchSettings, readTraceLevel } from '../settings/settings';
import { serverLaunch } from './launch';
import { clientLog, messageTracer } from './outputLog';

export type ServerRequestResultOf<M extends ServerRequestMethod> = Static<
  (typeof serverRequests)[M]['result']
>;

export class ThreadlineServer extends Disposable {
  readonly log: vscode.LogOutputChannel;
  private readonly client: ServerClient;
  private keys: Record<string, string> = {};
  private initialized: ResultOf<'initialize'> | undefined;
  private stopping: Promise<void> | undefined;
  private prepared: Promise<unknown> = Promise.resolve();
  /** Threads some view shows, with how many views: re-subscribed after a restart. */
  private readonly open = new RefCounts<string>();
  private readonly resubscribed = this._register(new Emitter<ResultOf<'thread/resume'>>());
  private readonly unwritten = new UnwrittenThreads();

  constructor(extension: vscode.ExtensionContext) {
    super();
    this.log = vscode.window.createOutputChannel('Threadline', { log: true });
    const version = String((extension.extension.packageJSON as { version: unknown }).version);
    const bundledServer = vscode.Uri.joinPath(extension.extensionUri, 'dist', 'server.js').fsPath;
    this.client = new ServerClient({
      launch: () =>
        serverLaunch(readLaunchSettings(), {
          bundledServer,
          execPath: process.execPath,
          env: process.env,
          keys: this.keys,
        }),
      clientInfo: { name: 'threadline_vscode', title: 'Threadline', version },
      log: clientLog(this.log),
      trace: messageTracer(this.log, readTraceLevel),
    });
    this._registerAll(
      this.client.onRestarted(() => {
        this.unwritten.clear();
        void this.resubscribe();
      }),
      this.client.onNotification((notification) => this.unwritten.observe(notification)),
    );
    this._register(
      onSettingsChanged(
        ['server.command', 'server.args', 'windows.shell'],
        () => void this.restartIfRunning(),
      ),
    );
  }

  get state(): ServerState {
    return this.client.state;
  }

  /** Why the server stopped for good (state `failed`). */
  get failure(): string | undefined {
    return this.client.failure;
  }

  /** The server child's process id while it runs (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.client.pid;
  }

  /** The server's initialize answer, once it has started. */
  get info(): ResultOf<'initialize'> | undefined {
    return this.initialized;
  }

  /** Our own server (not, say, the reference `codex app-server`): features only it has may be shown. */
  get isThreadline(): boolean {
    return this.initialized?.userAgent.startsWith('threadline/') ?? false;
  }

  /** Work the first launch waits for (reading the stored provider keys into its environment). */
  prepare(work: Promise<unknown>): void {
    this.prepared = work.catch((error: Error) => this.log.error(`preparing the server: ${error.message}`));
  }

  /** Starts the server if needed and waits for its handshake. */
  async start(): Promise<ResultOf<'initialize'>> {
    await this.prepared;
    this.initialized = await this.client.start();
    return this.initialized;
  }

  async request<M extends ClientMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    await this.start();
    const result = await this.client.request(method, params);
    if (method === 'thread/start') this.unwritten.started(result as ResultOf<'thread/start'>);
    return result;
  }

  /** A thread's session without its turns (thread/resume), also for a thread codex has not written yet. */
  resume(threadId: string): Promise<OpenedSession> {
    return this.unwritten.resume(this, threadId);
  }

  /** The notifications of one method, with its params (checked against its schema by the client). */
  onNotification<N extends NotificationMethod>(
    method: N,
    listener: (params: NotificationParamsOf<N>) => void,
  ): IDisposable {
    return this.client.onNotification((notification) => {
      if (isNotification(notification, method)) listener(notification.params);
    });
  }

  /** Every notification, for parts that route many methods (the tree, the conversation view). */
  onAnyNotification(listener: (notification: ServerNotification) => void): IDisposable {
    return this.client.onNotification(listener);
  }

  /**
   * Answers requests the server sends (approvals); methods nobody handles get -32601. The handler gets
   * the request's id too, which `serverRequest/resolved` names.
   */
  handleServerRequest<M extends ServerRequestMethod>(
    method: M,
    handler: (params: ServerRequestParamsOf<M>, id: RequestId) => Promise<ServerRequestResultOf<M>>,
  ): IDisposable {
    return this.client.handleServerRequest(method, (params, id) =>
      handler(params as ServerRequestParamsOf<M>, id),
    );
  }

  onStateChange(listener: (state: ServerState, detail: string | undefined) => void): IDisposable {
    return this.client.onStateChange(listener);
  }

  /** The server came back (after a crash or a restart) without the threads it had loaded. */
  onRestarted(listener: () => void): IDisposable {
    return this.client.onRestarted(() => {
      void this.start().then(listener, () => {});
    });
  }

  /**
   * Marks a thread as shown (the conversation view): after a restart the server has forgotten it, so it
   * is resumed with `excludeTurns` and `onResubscribed` reports the fresh thread; a turn the view saw
   * running did not survive the crash, so the view shows it as interrupted.
   */
  keepSubscribed(threadId: string): IDisposable {
    return this.open.keep(threadId);
  }

  get onResubscribed(): Event<ResultOf<'thread/resume'>> {
    return this.resubscribed.event;
  }

  /** Provider keys for the child's environment; a running server restarts so it sees the change. */
  async setProviderKeys(keys: Record<string, string>): Promise<void> {
    const changed = JSON.stringify(keys) !== JSON.stringify(this.keys);
    this.keys = keys;
    if (changed) await this.restartIfRunning();
  }

  async restart(): Promise<void> {
    this.log.info('restarting the server');
    await this.client.restart();
  }

  override dispose(): void {
    super.dispose();
    // The log outlives the child, so its last stderr lines still have somewhere to go.
    this.stopping ??= this.client.dispose().finally(() => this.log.dispose());
  }

  /** Resolves once the child process has exited (deactivate waits for it). */
  stopped(): Promise<void> {
    return this.stopping ?? Promise.resolve();
  }

  private async resubscribe(): Promise<void> {
    for (const threadId of this.open.keys()) {
      try {
        this.resubscribed.fire(await this.client.request('thread/resume', { threadId, excludeTurns: true }));
      } catch (error) {
        this.log.warn(`could not re-open thread ${threadId} after the restart: ${(error as Error).message}`);
      }
    }
  }

  private async restartIfRunning(): Promise<void> {
    if (this.client.state === 'stopped') return;
    this.initialized = undefined;
    await this.restart().catch((error: Error) => this.log.error(`restart failed: ${error.message}`));
  }
}
