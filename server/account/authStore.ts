// API keys per provider in $THREADLINE_HOME/auth.json: {"providers": {"<id>": {"apiKey": "…"}}}, and
// the OAuth tokens of MCP servers beside them: {"mcpServers": {"<name>": {…}}}.
// Written whole to a temporary file and renamed over the old one, readable by the owner only. A
// file that does not parse is kept aside (auth.json.corrupt) rather than silently overwritten.
// Every change is a read–modify–write under auth.json.lock, so servers of two windows sharing the
// home cannot lose each other's keys.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { withFileLock } from '../fs/lockFile';
import type { Logger } from '../log';
import { renameRetrying } from '../fs/renameRetrying';

interface AuthFile {
  providers: Record<string, { apiKey?: string }>;
  mcpServers?: Record<string, McpCredentials>;
}

/** What an MCP server's OAuth sign-in leaves: the tokens, and the client it registered for refreshes. */
export interface McpCredentials {
  tokens: Record<string, unknown>;
  client?: Record<string, unknown>;
}

const OWNER_ONLY = 0o600;

export class AuthStore {
  readonly path: string;
  /** Changes in this process run one after another; the lock file orders them across processes. */
  private changes: Promise<unknown> = Promise.resolve();

  constructor(
    home: string,
    private readonly log: Logger,
  ) {
    this.path = join(home, 'auth.json');
  }

  async apiKey(providerId: string): Promise<string | null> {
    const providers = (await this.read()).providers;
    const key = Object.hasOwn(providers, providerId) ? providers[providerId]?.apiKey : undefined;
    return typeof key === 'string' && key ? key : null;
  }

  /** Every secret the file holds (keys, MCP tokens), so text leaving the machine's store can be scrubbed. */
  async secrets(): Promise<string[]> {
    const found: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string') found.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(await this.read());
    return found;
  }

  /** Stores a provider's key, or removes it when `apiKey` is null. */
  setApiKey(providerId: string, apiKey: string | null): Promise<void> {
    return this.change((file) => {
      if (apiKey) file.providers[providerId] = { ...file.providers[providerId], apiKey };
      else delete file.providers[providerId];
    });
  }

  async mcpCredentials(server: string): Promise<McpCredentials | null> {
    const servers = (await this.read()).mcpServers ?? {};
    const entry = Object.hasOwn(servers, server) ? servers[server] : undefined;
    return entry && typeof entry.tokens === 'object' && entry.tokens !== null ? entry : null;
  }

  /** Stores an MCP server's credentials, or forgets them when null. */
  setMcpCredentials(server: string, credentials: McpCredentials | null): Promise<void> {
    return this.change((file) => {
      const servers = { ...file.mcpServers };
      if (credentials) servers[server] = credentials;
      else delete servers[server];
      file.mcpServers = servers;
    });
  }

  private change(edit: (file: AuthFile) => void): Promise<void> {
    const change = this.changes.then(async () => {
      await fs.mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      await withFileLock(`${this.path}.lock`, async () => {
        const file = await this.read();
        edit(file);
        await this.write(file);
      });
    });
    this.changes = change.catch(() => {});
    return change;
  }

  private async read(): Promise<AuthFile> {
    let text: string;
    try {
      text = await fs.readFile(this.path, 'utf8');
    } catch {
      return { providers: {} };
    }
    await this.tighten();
    try {
      const value = JSON.parse(text) as Partial<AuthFile>;
      const { providers, mcpServers } = value;
      const isTable = <T>(v: T | undefined): v is T =>
        typeof v === 'object' && v !== null && !Array.isArray(v);
      if (isTable(providers)) return { providers, ...(isTable(mcpServers) ? { mcpServers } : {}) };
      throw new Error('no "providers" table');
    } catch (error) {
      // Never echo the contents: they may hold keys.
      const corrupt = `${this.path}.corrupt`;
      this.log.warn(`auth.json cannot be read (${(error as Error).name}); keeping a copy as ${corrupt}`);
      await fs.copyFile(this.path, corrupt).catch(() => {});
      await fs.chmod(corrupt, OWNER_ONLY).catch(() => {});
      return { providers: {} };
    }
  }

  /** A file someone made readable by others (an editor, a copy) goes back to owner-only. */
  private async tighten(): Promise<void> {
    try {
      const { mode } = await fs.stat(this.path);
      if ((mode & 0o077) === 0) return;
      await fs.chmod(this.path, OWNER_ONLY);
      this.log.warn('auth.json was readable by other users; made it owner-only (0600)');
    } catch {
      // Gone or not ours: the read that follows reports what matters.
    }
  }

  private async write(file: AuthFile): Promise<void> {
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.writeFile(temp, `${JSON.stringify(file, null, 2)}\n`, { mode: OWNER_ONLY, flag: 'wx' });
      await renameRetrying(temp, this.path);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }
}
