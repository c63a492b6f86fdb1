// The MCP servers of config.toml (and, once trusted, of projects' own config files and of installed
// plugins), one connection each, shared by every thread. Servers start on
// first use (a turn, or the status list), all at once, each bounded by its own startup timeout.
// config/mcpServer/reload reads the config again: changed, removed or failed servers are closed and
// start again on next use, so loaded threads see the new tools on their next turn.
import type { McpServerConfig } from '../config/mcpServers';
import type { Logger } from '../log';
import type { McpAuthStatus } from '../protocol/mcp';
import { McpConnection } from './connection';
import { namedCode, type NamedCode } from './namedCode';
import type { McpAuth } from './oauth';
import { projectServers, type McpTrust, type ProjectServer } from './projectServers';

export class McpRegistry {
  private connections: Map<string, McpConnection> | null = null;
  private loading: Promise<Map<string, McpConnection>> | null = null;
  /**
   * Servers of projects' and plugins' files, by the fingerprint of their definition, each with the
   * fingerprint of the code it was started on (see namedCode.ts).
   */
  private readonly project = new Map<string, { connection: McpConnection; code: string }>();
  /** Such servers the user declined to trust; asked again after a reload or a restart. */
  private readonly declined = new Set<string>();

  constructor(
    private readonly readConfig: (fresh: boolean) => Promise<McpServerConfig[]>,
    readonly auth: McpAuth,
    private readonly trust: McpTrust,
    private readonly log: Logger,
  ) {}

  /** Every configured server, started or not, in config order. */
  async list(): Promise<McpConnection[]> {
    return [...(await this.load()).values()];
  }

  async get(name: string): Promise<McpConnection | undefined> {
    return (await this.load()).get(name);
  }

  /** Starts what is not running yet; resolves when each is up or has failed (its timeout at most). */
  async started(): Promise<McpConnection[]> {
    const all = await this.list();
    await Promise.all(all.map((connection) => connection.ensureStarted()));
    return all;
  }

  /**
   * The started servers a project defines for `cwd` (see projectServers.ts). One the user has not
   * trusted yet is put to `approve` once; without a yes it never starts. A server of the same name in
   * the user's config or among the installed plugins (`installed`, which come first in the answer) wins:
   * a repository never shadows what the user chose.
   */
  async forProject(
    cwd: string,
    approve: ((server: ProjectServer, code: NamedCode) => Promise<boolean>) | null,
    installed: ProjectServer[] = [],
  ): Promise<McpConnection[]> {
    return this.forDefined([...installed, ...(await projectServers(cwd, this.log))], approve);
  }

  /** The same for servers defined elsewhere than the user's config (projects, plugins). */
  async forDefined(
    servers: ProjectServer[],
    approve: ((server: ProjectServer, code: NamedCode) => Promise<boolean>) | null,
  ): Promise<McpConnection[]> {
    const taken = new Set((await this.list()).map((c) => c.config.name));
    const chosen: McpConnection[] = [];
    for (const server of servers) {
      const { name } = server.config;
      if (taken.has(name)) {
        this.log.info(`mcp ${name}: ${server.file} defines it too; the one already listed is used`);
        continue;
      }
      taken.add(name);
      if (!server.config.enabled) continue;
      const code = await namedCode(server);
      let trusted = await this.trust.trusted(code.fingerprint);
      if (!trusted && approve && !this.declined.has(code.fingerprint)) {
        trusted = await approve(server, code);
        if (trusted) await this.trust.trust(code.fingerprint);
        else this.declined.add(code.fingerprint);
        this.log.info(`mcp ${name} of ${server.file}: ${trusted ? 'trusted' : 'not trusted'} by the user`);
      }
      const running = this.project.get(server.fingerprint);
      // Started on other code than is trusted now: it would run the new code on its next restart.
      if (running && (!trusted || running.code !== code.fingerprint)) {
        this.project.delete(server.fingerprint);
        await running.connection.close();
      }
      if (!trusted) continue;
      let connection = this.project.get(server.fingerprint)?.connection;
      if (!connection) {
        connection = new McpConnection(server.config, this.log, this.auth);
        this.project.set(server.fingerprint, { connection, code: code.fingerprint });
      }
      chosen.push(connection);
    }
    await Promise.all(chosen.map((connection) => connection.ensureStarted()));
    return chosen;
  }

  async authStatus(connection: McpConnection): Promise<McpAuthStatus> {
    const { transport } = connection.config;
    if (transport.type === 'stdio') return 'unsupported';
    if (transport.bearerTokenEnvVar) return 'bearerToken';
    if (await this.auth.signedIn(connection.config.name)) return 'oAuth';
    return connection.status === 'authenticationRequired' ? 'notLoggedIn' : 'unsupported';
  }

  /** Reads the config again; a server whose entry is unchanged and running stays up. */
  async reload(): Promise<void> {
    const previous = await this.load();
    const configs = await this.readConfig(true);
    const next = new Map<string, McpConnection>();
    for (const config of configs) {
      const old = previous.get(config.name);
      if (old && old.status === 'connected' && sameConfig(old.config, config)) next.set(config.name, old);
      else next.set(config.name, new McpConnection(config, this.log, this.auth));
    }
    this.connections = next;
    this.loading = Promise.resolve(next);
    await Promise.all(
      [...previous.values()].filter((c) => next.get(c.config.name) !== c).map((c) => c.close()),
    );
    this.log.info(`mcp: reloaded, ${configs.length} server(s) configured`);
  }

  /** Stops the servers of these definitions (an uninstalled plugin's); they never start again. */
  async forget(servers: ProjectServer[]): Promise<void> {
    const gone = servers.flatMap((server) => {
      const running = this.project.get(server.fingerprint);
      this.project.delete(server.fingerprint);
      return running ? [running.connection] : [];
    });
    await Promise.all(gone.map((connection) => connection.close()));
  }

  /** Starts one server anew (after a sign-in), keeping its config. */
  async restart(name: string): Promise<void> {
    const connections = await this.load();
    const old = connections.get(name);
    if (!old) return;
    connections.set(name, new McpConnection(old.config, this.log, this.auth));
    await old.close();
  }

  async close(): Promise<void> {
    this.auth.close();
    const connections = this.connections;
    this.connections = null;
    this.loading = null;
    const all = [...(connections?.values() ?? []), ...[...this.project.values()].map((p) => p.connection)];
    this.project.clear();
    await Promise.all(all.map((c) => c.close()));
  }

  private load(): Promise<Map<string, McpConnection>> {
    this.loading ??= this.readConfig(false).then((configs) => {
      this.connections = new Map(configs.map((c) => [c.name, new McpConnection(c, this.log, this.auth)]));
      return this.connections;
    });
    return this.loading;
  }
}

function sameConfig(a: McpServerConfig, b: McpServerConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
