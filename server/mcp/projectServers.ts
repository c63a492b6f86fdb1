// MCP servers a project defines in its own `.threadline/config.toml` or `.codex/config.toml` (the
// thread's folder and those above it up to the repository root; Codex reads the latter). A project's files are as trustworthy as
// whoever wrote them (a cloned repository, the agent itself), so such a server starts only once the
// user trusted that exact definition: a changed command, URL or environment, or a changed file it
// names (namedCode.ts), asks again. Trust is kept in $THREADLINE_HOME/trusted-mcp-servers.json, which
// the agent's commands cannot see.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isTable } from '../config/providers';
import { mcpServersFrom, type McpServerConfig } from '../config/mcpServers';
import { renameRetrying } from '../fs/renameRetrying';
import type { Logger } from '../log';

export interface ProjectServer {
  config: McpServerConfig;
  /** The config.toml that defines it. */
  file: string;
  /** Names the exact definition: the file, the name and everything it runs or reaches. */
  fingerprint: string;
}

/** Threadline's own first (externalAgentConfig/import writes a repository's servers there), then Codex's. */
export const PROJECT_CONFIG_FOLDERS = ['.threadline', '.codex'];
const PROJECT_CONFIGS = PROJECT_CONFIG_FOLDERS.map((folder) => join(folder, 'config.toml'));

/** The folders whose project config counts: the cwd up to its repository root, else the cwd alone. */
export async function projectFolders(cwd: string): Promise<string[]> {
  const folders: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    folders.push(dir);
    if (await fs.stat(join(dir, '.git')).catch(() => undefined)) return folders;
    if (dirname(dir) === dir) return [resolve(cwd)];
  }
}

export async function projectServers(cwd: string, log: Logger): Promise<ProjectServer[]> {
  const found: ProjectServer[] = [];
  const files = (await projectFolders(cwd)).flatMap((folder) =>
    PROJECT_CONFIGS.map((f) => [folder, join(folder, f)]),
  );
  for (const [folder, file] of files as [string, string][]) {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      continue;
    }
    let table: Record<string, unknown>;
    try {
      const { parse } = await import('smol-toml');
      table = parse(text);
    } catch {
      log.warn(`${file} is not valid TOML; its MCP servers are left out`);
      continue;
    }
    const section = isTable(table.mcp_servers) ? table.mcp_servers : undefined;
    for (const config of mcpServersFrom(section, log)) {
      // The nearest definition of a name wins, as the nearest config would.
      if (found.some((s) => s.config.name === config.name)) continue;
      found.push(definedServer(config, file, folder));
    }
  }
  return found;
}

/**
 * A server defined outside the user's config (by a project's file or a plugin's): a stdio server runs
 * in the defining folder unless it says otherwise, and the fingerprint names the exact definition.
 */
export function definedServer(config: McpServerConfig, file: string, folder: string): ProjectServer {
  const transport =
    config.transport.type === 'stdio'
      ? { ...config.transport, cwd: config.transport.cwd ?? folder }
      : config.transport;
  const definition = { ...config, transport };
  return {
    config: definition,
    file,
    fingerprint: createHash('sha256')
      .update(JSON.stringify({ file, config: definition }))
      .digest('hex'),
  };
}

/** Fingerprints the user trusted, in a file of $THREADLINE_HOME (project hooks keep their own). */
export class McpTrust {
  private readonly path: string;

  constructor(home: string, file = 'trusted-mcp-servers.json') {
    this.path = join(home, file);
  }

  async trusted(fingerprint: string): Promise<boolean> {
    return (await this.read()).includes(fingerprint);
  }

  async trust(fingerprint: string): Promise<void> {
    const list = await this.read();
    if (list.includes(fingerprint)) return;
    const temp = `${this.path}.${randomBytes(4).toString('hex')}.tmp`;
    await fs.mkdir(dirname(this.path), { recursive: true });
    await fs.writeFile(temp, `${JSON.stringify({ trusted: [...list, fingerprint] }, null, 2)}\n`, {
      mode: 0o600,
    });
    await renameRetrying(temp, this.path);
  }

  private async read(): Promise<string[]> {
    try {
      const { trusted } = JSON.parse(await fs.readFile(this.path, 'utf8')) as { trusted?: unknown };
      return Array.isArray(trusted) ? trusted.filter((t): t is string => typeof t === 'string') : [];
    } catch {
      // Missing or broken: nothing is trusted, so the user is asked again (fail closed).
      return [];
    }
  }
}
