// config.toml's [mcp_servers.<name>] tables (Codex's key names): a stdio server (`command`, `args`,
// `env`, `cwd`) or a streamable HTTP one (`url`, `http_headers`, `bearer_token_env_var`), each with
// `enabled`, `startup_timeout_sec` and `tool_timeout_sec`. A broken entry is named in the log and
// left out; the others still load.
import type { Logger } from '../log';
import { isTable } from './providers';

export type McpTransportConfig =
  | { type: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd: string | null }
  | {
      type: 'http';
      url: string;
      headers: Record<string, string>;
      /** The variable holding the bearer token; the token itself never enters the config we keep. */
      bearerTokenEnvVar: string | null;
    };

export interface McpServerConfig {
  name: string;
  transport: McpTransportConfig;
  enabled: boolean;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
}

export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

// Letters, digits, `_` and `-`: the name becomes part of the tool names the model sees.
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const FIELDS = new Set([
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'http_headers',
  'bearer_token_env_var',
  'enabled',
  'startup_timeout_sec',
  'startup_timeout_ms',
  'tool_timeout_sec',
]);

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isStringTable = (v: unknown): v is Record<string, string> =>
  isTable(v) && Object.values(v).every((s) => typeof s === 'string');

export function mcpServersFrom(section: unknown, log: Logger): McpServerConfig[] {
  if (section === undefined) return [];
  if (!isTable(section)) {
    log.warn('config.toml: [mcp_servers] must be a table of servers; no MCP server is configured');
    return [];
  }
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(section)) {
    const problem = (why: string) =>
      log.warn(`config.toml: mcp_servers.${name} ${why}; this server is left out`);
    if (!NAME.test(name)) {
      log.warn(
        `config.toml: mcp_servers.${JSON.stringify(name).slice(0, 80)}: a server name may hold only letters, digits, _ and -; left out`,
      );
      continue;
    }
    if (!isTable(entry)) {
      problem('must be a table');
      continue;
    }
    const unknown = Object.keys(entry).filter((key) => !FIELDS.has(key));
    if (unknown.length) log.info(`config.toml: mcp_servers.${name}: ignoring ${unknown.join(', ')}`);
    const transport = transportOf(entry, problem);
    if (!transport) continue;
    const seconds = (key: string, fallbackMs: number) => {
      const value = entry[key];
      if (value === undefined) return fallbackMs;
      if (typeof value === 'number' && value > 0 && Number.isFinite(value)) return Math.round(value * 1000);
      log.warn(
        `config.toml: mcp_servers.${name}.${key} must be a number of seconds above 0; using the default`,
      );
      return fallbackMs;
    };
    const startupMs =
      typeof entry.startup_timeout_ms === 'number' && entry.startup_timeout_ms > 0
        ? entry.startup_timeout_ms
        : seconds('startup_timeout_sec', DEFAULT_STARTUP_TIMEOUT_MS);
    if (entry.enabled !== undefined && typeof entry.enabled !== 'boolean')
      log.warn(`config.toml: mcp_servers.${name}.enabled must be true or false; taken as true`);
    servers.push({
      name,
      transport,
      enabled: entry.enabled !== false,
      startupTimeoutMs: startupMs,
      toolTimeoutMs: seconds('tool_timeout_sec', DEFAULT_TOOL_TIMEOUT_MS),
    });
  }
  return servers;
}

function transportOf(
  entry: Record<string, unknown>,
  problem: (why: string) => void,
): McpTransportConfig | null {
  const { command, args, env, cwd, url, http_headers, bearer_token_env_var } = entry;
  if (command !== undefined && url !== undefined) return (problem('has both `command` and `url`'), null);
  if (typeof command === 'string' && command.length > 0) {
    if (args !== undefined && !isStringList(args)) return (problem('.args must be a list of strings'), null);
    if (env !== undefined && !isStringTable(env)) return (problem('.env must be a table of strings'), null);
    if (cwd !== undefined && typeof cwd !== 'string') return (problem('.cwd must be a string'), null);
    return { type: 'stdio', command, args: args ?? [], env: { ...env }, cwd: cwd ?? null };
  }
  if (typeof url === 'string') {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return (problem('.url is not a URL'), null);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      return (problem('.url must be http(s)'), null);
    if (http_headers !== undefined && !isStringTable(http_headers))
      return (problem('.http_headers must be a table of strings'), null);
    if (bearer_token_env_var !== undefined && typeof bearer_token_env_var !== 'string')
      return (problem('.bearer_token_env_var must be a variable name'), null);
    return {
      type: 'http',
      url,
      headers: { ...http_headers },
      bearerTokenEnvVar: bearer_token_env_var ?? null,
    };
  }
  return (problem('needs a `command` (stdio) or a `url` (streamable HTTP)'), null);
}

/** What a server runs or reaches, as the user should see it before trusting it. */
export function describeTransport(transport: McpTransportConfig): string {
  if (transport.type === 'http') return transport.url;
  return [transport.command, ...transport.args]
    .map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w)))
    .join(' ');
}
