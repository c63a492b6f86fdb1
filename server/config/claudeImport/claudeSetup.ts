// Where Claude Code keeps what a user would bring over, and where each thing goes here. Home scope:
// ~/.claude/CLAUDE.md, ~/.claude/skills, ~/.claude.json's mcpServers; repository scope: CLAUDE.md,
// .claude/skills and .mcp.json in the folder. Repository MCP servers go to the project's own
// .threadline/config.toml (a layer that applies only once the project is trusted), never to the
// user's config: a repository's files must not add programs to every workspace. Nor may its links
// lead there: every repository path is resolved and must stay inside it (containedPath.ts).
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { containedPath, ContainmentError, repositoryBoundary, type Boundary } from '../../fs/containedPath';

export interface Scope {
  /** null: the user's home; else the repository folder. */
  cwd: string | null;
  claudeMd: string;
  agentsMd: string;
  skillsFrom: string;
  skillsTo: string;
  mcpFrom: string;
  configTo: string;
  /** What every path read or written must stay in: null for the user's own (home) scope. */
  boundary: Boundary | null;
}

export function homeScope(threadlineHome: string, home = homedir()): Scope {
  return {
    cwd: null,
    claudeMd: join(home, '.claude', 'CLAUDE.md'),
    agentsMd: join(threadlineHome, 'AGENTS.md'),
    skillsFrom: join(home, '.claude', 'skills'),
    skillsTo: join(home, '.agents', 'skills'),
    mcpFrom: join(home, '.claude.json'),
    configTo: join(threadlineHome, 'config.toml'),
    boundary: null,
  };
}

export function repoScope(cwd: string, threadlineHome: string): Scope {
  return {
    cwd,
    claudeMd: join(cwd, 'CLAUDE.md'),
    agentsMd: join(cwd, 'AGENTS.md'),
    skillsFrom: join(cwd, '.claude', 'skills'),
    skillsTo: join(cwd, '.agents', 'skills'),
    mcpFrom: join(cwd, '.mcp.json'),
    configTo: join(cwd, '.threadline', 'config.toml'),
    boundary: repositoryBoundary(cwd, threadlineHome),
  };
}

/** The real path to read or write `path` at, within the scope's boundary; throws ContainmentError. */
export function scopedPath(scope: Scope, path: string): Promise<string> {
  return scope.boundary === null ? Promise.resolve(path) : containedPath(path, scope.boundary);
}

/** Whether every one of `paths` stays within the scope's boundary. */
export async function staysInScope(scope: Scope, ...paths: string[]): Promise<boolean> {
  try {
    for (const path of paths) await scopedPath(scope, path);
    return true;
  } catch (error) {
    if (error instanceof ContainmentError) return false;
    throw error;
  }
}

/** A file's text, or null when it is missing; an empty file counts as missing. */
export async function nonEmpty(path: string): Promise<string | null> {
  const text = await fs.readFile(path, 'utf8').catch(() => null);
  return text?.trim() ? text : null;
}

export async function exists(path: string): Promise<boolean> {
  return fs.lstat(path).then(
    () => true,
    () => false,
  );
}

/** Skill folders (those with a SKILL.md) in Claude's skills folder that are not here yet. */
export async function pendingSkills(scope: Scope): Promise<string[]> {
  const entries = await fs.readdir(scope.skillsFrom, { withFileTypes: true }).catch(() => []);
  const names: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    if (!(await exists(join(scope.skillsFrom, entry.name, 'SKILL.md')))) continue;
    if (await exists(join(scope.skillsTo, entry.name))) continue;
    if (await staysInScope(scope, join(scope.skillsFrom, entry.name), join(scope.skillsTo, entry.name)))
      names.push(entry.name);
  }
  return names.sort();
}

export type ClaudeMcpServer = Record<string, unknown>;

/** Claude's MCP server definitions, by name; an unreadable file has none. */
export async function claudeMcpServers(scope: Scope): Promise<Map<string, ClaudeMcpServer>> {
  const text = await fs.readFile(scope.mcpFrom, 'utf8').catch(() => null);
  if (text === null) return new Map();
  try {
    const servers = (JSON.parse(text) as { mcpServers?: unknown }).mcpServers;
    if (!servers || typeof servers !== 'object' || Array.isArray(servers)) return new Map();
    return new Map(
      Object.entries(servers).filter(
        (entry): entry is [string, ClaudeMcpServer] => !!entry[1] && typeof entry[1] === 'object',
      ),
    );
  } catch {
    return new Map();
  }
}

export class BrokenConfigError extends Error {}

/** The MCP server names the target config.toml defines already; a config that does not parse throws. */
export async function configuredMcpServers(configPath: string): Promise<Set<string>> {
  const text = await fs.readFile(configPath, 'utf8').catch(() => null);
  if (text === null) return new Set();
  let table: Record<string, unknown>;
  try {
    table = parse(text);
  } catch (error) {
    throw new BrokenConfigError(`${configPath} does not parse (${(error as Error).message.split('\n')[0]})`);
  }
  const servers = table.mcp_servers;
  return new Set(servers && typeof servers === 'object' ? Object.keys(servers) : []);
}

/** MCP servers Claude defines that the target config does not. */
export async function pendingMcpServers(scope: Scope): Promise<string[]> {
  if (!(await staysInScope(scope, scope.mcpFrom, scope.configTo))) return [];
  const claude = await claudeMcpServers(scope);
  if (claude.size === 0) return [];
  const configured = await configuredMcpServers(scope.configTo).catch(() => new Set<string>());
  return [...claude.entries()]
    .filter(([name, server]) => !configured.has(name) && typeof toOurs(server) !== 'string')
    .map(([name]) => name)
    .sort();
}

/** Claude's definition as our [mcp_servers.<name>] table, or why it cannot be. */
export function toOurs(server: ClaudeMcpServer): Record<string, unknown> | string {
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  const table = (v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).filter(([, s]) => typeof s === 'string'))
      : {};
  if (typeof server.url === 'string') {
    if (server.type === 'sse') return 'SSE MCP servers are not supported; only streamable HTTP';
    const headers = table(server.headers);
    return { url: server.url, ...(Object.keys(headers).length ? { http_headers: headers } : {}) };
  }
  if (typeof server.command === 'string') {
    const env = table(server.env);
    return {
      command: server.command,
      args: strings(server.args),
      ...(Object.keys(env).length ? { env } : {}),
    };
  }
  return 'the definition has neither a command nor a url';
}
