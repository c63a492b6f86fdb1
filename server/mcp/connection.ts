// One MCP server as this app-server sees it: started on first use with the official SDK client,
// its catalog (tools, resources, templates) read once it is up, its calls bounded by its timeouts.
// Whatever the server does (fails to start, exits, hangs, writes garbage), the connection ends up
// `failed` with a reason, and no caller waits longer than the configured timeout.
import type { Readable } from 'node:stream';
import type { McpServerConfig } from '../config/mcpServers';
import type { Logger } from '../log';
import type { McpResource, McpResourceTemplate, McpServerConnectionStatus, McpTool } from '../protocol/mcp';
import type * as McpSdk from './mcpSdk';
import { SignInRequiredError, type McpAuth } from './oauth';

type Sdk = typeof McpSdk;
type SdkClient = InstanceType<Sdk['Client']>;
export type CallToolResult = Awaited<ReturnType<SdkClient['callTool']>>;
export type ReadResourceResult = Awaited<ReturnType<SdkClient['readResource']>>;

export interface ToolCallOptions {
  signal: AbortSignal;
  onProgress(message: string): void;
}

/** How much of a server's stderr line reaches the log. */
const STDERR_LINE_LIMIT = 2000;
/** Pages of a catalog read at most, so a server that always answers with a cursor cannot loop us. */
const MAX_PAGES = 50;

export class McpConnection {
  status: McpServerConnectionStatus;
  error: string | null = null;
  tools: McpTool[] = [];
  resources: McpResource[] = [];
  resourceTemplates: McpResourceTemplate[] = [];
  serverInfo: { name: string; version: string; title?: string | null } | null = null;
  private client: SdkClient | null = null;
  private starting: Promise<void> | null = null;
  private closed = false;

  constructor(
    readonly config: McpServerConfig,
    private readonly log: Logger,
    private readonly auth: McpAuth,
  ) {
    this.status = config.enabled ? 'notStarted' : 'disabled';
  }

  /** Starts the server unless it runs, is starting or failed to start (a reload retries). */
  ensureStarted(): Promise<void> {
    if (this.status === 'disabled' || this.closed) return Promise.resolve();
    this.starting ??= this.start();
    return this.starting;
  }

  private async start(): Promise<void> {
    const { name, startupTimeoutMs } = this.config;
    this.status = 'starting';
    const sdk = await import('./mcpSdk');
    const client = new sdk.Client({ name: 'threadline', version: __THREADLINE_VERSION__ });
    let timer: NodeJS.Timeout | undefined;
    try {
      const transport = await this.transport(sdk);
      // The SDK reports a line it cannot parse here; the server stays up, and so do we.
      client.onerror = (error) => this.log.warn(`mcp ${name}: ${oneLine(error.message)}`);
      client.onclose = () => this.onClosed();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`did not start within ${startupTimeoutMs / 1000} s`)),
          startupTimeoutMs,
        );
      });
      const deadline = Date.now() + startupTimeoutMs;
      await Promise.race([
        (async () => {
          await client.connect(transport, { timeout: startupTimeoutMs });
          this.client = client;
          await this.readCatalog(client, () => Math.max(1, deadline - Date.now()));
        })(),
        timeout,
      ]);
      if (this.closed) throw new Error('closed while starting');
      const info = client.getServerVersion();
      this.serverInfo = info ? { name: info.name, version: info.version, title: info.title ?? null } : null;
      this.status = 'connected';
      this.log.info(`mcp ${name}: connected, ${this.tools.length} tool(s)`);
    } catch (error) {
      this.client = null;
      await client.close().catch(() => {});
      const unauthorized =
        error instanceof SignInRequiredError ||
        error instanceof sdk.UnauthorizedError ||
        /\b401\b|unauthori[sz]ed/i.test(`${error}`);
      this.status = unauthorized ? 'authenticationRequired' : 'failed';
      this.error = unauthorized
        ? new SignInRequiredError().message
        : oneLine((error as Error).message ?? String(error));
      this.log.warn(`mcp ${name}: failed to start: ${this.error}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private async transport(sdk: Sdk) {
    const { transport } = this.config;
    if (transport.type === 'http') {
      const headers: Record<string, string> = { ...transport.headers };
      if (transport.bearerTokenEnvVar) {
        const token = process.env[transport.bearerTokenEnvVar];
        if (!token)
          throw new Error(`the variable ${transport.bearerTokenEnvVar} (bearer_token_env_var) is not set`);
        headers.Authorization = `Bearer ${token}`;
      }
      return new sdk.StreamableHTTPClientTransport(new URL(transport.url), {
        requestInit: { headers },
        authProvider: transport.bearerTokenEnvVar ? undefined : this.auth.providerFor(this.config.name),
      });
    }
    // The SDK passes the server only a few harmless variables (PATH, HOME, USER, …) besides the
    // config's `env`: no API key of ours reaches it.
    const stdio = new sdk.StdioClientTransport({
      command: transport.command,
      args: transport.args,
      env: { ...sdk.getDefaultEnvironment(), ...transport.env },
      cwd: transport.cwd ?? undefined,
      stderr: 'pipe',
    });
    this.logStderr(stdio.stderr as Readable | null);
    return stdio;
  }

  private logStderr(stream: Readable | null): void {
    if (!stream) return;
    let tail = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (tail + chunk).split('\n');
      tail = lines.pop() ?? '';
      if (tail.length > STDERR_LINE_LIMIT) tail = tail.slice(0, STDERR_LINE_LIMIT);
      for (const line of lines)
        if (line.trim()) this.log.info(`mcp ${this.config.name} stderr: ${line.slice(0, STDERR_LINE_LIMIT)}`);
    });
  }

  private async readCatalog(client: SdkClient, remainingMs: () => number): Promise<void> {
    const capabilities = client.getServerCapabilities() ?? {};
    const pages = async <T>(list: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>) => {
      const all: T[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const { items, next } = await list(cursor);
        all.push(...items);
        if (!next) break;
        cursor = next;
      }
      return all;
    };
    const options = () => ({ timeout: remainingMs() });
    if (capabilities.tools) {
      this.tools = await pages(async (cursor) => {
        const r = await client.listTools(cursor ? { cursor } : undefined, options());
        return { items: r.tools as McpTool[], next: r.nextCursor };
      });
    }
    if (capabilities.resources) {
      // A server may offer tools and break on resources: its tools still count.
      this.resources = await pages(async (cursor) => {
        const r = await client.listResources(cursor ? { cursor } : undefined, options());
        return { items: r.resources as McpResource[], next: r.nextCursor };
      }).catch(
        (error: Error) => (
          this.log.warn(`mcp ${this.config.name}: resources: ${oneLine(error.message)}`),
          []
        ),
      );
      this.resourceTemplates = await pages(async (cursor) => {
        const r = await client.listResourceTemplates(cursor ? { cursor } : undefined, options());
        return { items: r.resourceTemplates as McpResourceTemplate[], next: r.nextCursor };
      }).catch(() => []);
    }
  }

  private onClosed(): void {
    if (this.closed || this.status !== 'connected') return;
    this.client = null;
    this.status = 'failed';
    this.error = 'the server exited';
    // A server that was up and then exited gets one new start on its next use.
    this.starting = null;
    this.log.warn(`mcp ${this.config.name}: the server exited`);
  }

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: ToolCallOptions,
  ): Promise<CallToolResult> {
    await this.ensureStarted();
    const client = this.client;
    if (!client || this.status !== 'connected')
      throw new Error(`${this.config.name} is not available: ${this.error ?? this.status}`);
    const timeoutMs = this.config.toolTimeoutMs;
    return client
      .callTool({ name: tool, arguments: args }, undefined, {
        signal: options.signal,
        timeout: timeoutMs,
        // Progress shows the tool is alive, but never past the timeout: a chatty hang still ends.
        maxTotalTimeout: timeoutMs,
        onprogress: ({ progress, total, message }) =>
          options.onProgress(message ?? (total ? `${progress}/${total}` : `${progress}`)),
      })
      .catch((error: Error) => {
        throw new Error(
          /timed out|timeout/i.test(error.message)
            ? `no answer within ${timeoutMs / 1000} s`
            : oneLine(error.message),
        );
      });
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    await this.ensureStarted();
    if (!this.client || this.status !== 'connected')
      throw new Error(`${this.config.name} is not available: ${this.error ?? this.status}`);
    return this.client.readResource({ uri }, { timeout: this.config.toolTimeoutMs });
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => {});
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 500);
}
