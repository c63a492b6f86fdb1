// The merged config layers (layers.ts) as the server uses them: the defaults new threads start
// with, the model providers and the agent's options. Keys we do not use (Codex configs have many)
// are named in one log line; a broken config.toml is reported and ignored here (config/read and
// the writers refuse it instead).
import type { Logger } from '../log';
import {
  normalizeApprovalPolicy,
  normalizeSandboxMode,
  type AskForApprovalInput,
  type SandboxModeInput,
} from '../protocol/enums';
import type { ShellEnvironmentPolicy } from '../exec/commandEnv';
import { shellKindOf } from '../exec/shellSelection';
import type { ProviderConfig } from '../providers/types';
import { codexHistorySetting, type CodexHistorySetting } from './codexHistory';
import { isTable, resolveProviders } from './providers';
import { shellEnvironmentPolicyFrom } from './shellEnvironmentPolicy';
import { mcpServersFrom, type McpServerConfig } from './mcpServers';
import { BUILT_IN_TABLE, mergeLayers, readLayers } from './layers';
import { BrokenConfigFile, type Table } from './tomlFile';
import type { ConfigDefaults } from './settings';

export interface LoadedConfig {
  defaults: ConfigDefaults;
  providers: Map<string, ProviderConfig>;
  /** `[tools.update_plan] enabled`. */
  updatePlanTool: boolean;
  /** `model_context_window`: overrides what we know of the model. */
  contextWindow: number | null;
  /** `model_auto_compact_token_limit`. */
  autoCompactTokens: number | null;
  /** `thread_unload_delay_secs`. */
  threadUnloadDelaySecs: number | null;
  /** `[shell_environment_policy]`, with every provider's env_key never inherited. */
  shellEnvironment: ShellEnvironmentPolicy;
  /** `[windows] shell`: the shell (name or path) commands run in on Windows; null to choose one. */
  windowsShell: string | null;
  /** `[mcp_servers.<name>]`. */
  mcpServers: McpServerConfig[];
  /** `codex_history`: which Codex home's threads are listed beside ours. */
  codexHistory: CodexHistorySetting;
}

const BUILT_IN_DEFAULTS: ConfigDefaults = {
  model: BUILT_IN_TABLE.model as string,
  modelProvider: BUILT_IN_TABLE.model_provider as string,
  approvalPolicy: 'on-request',
  sandboxMode: 'workspace-write',
  reasoningEffort: null,
  reasoningSummary: null,
};

const KNOWN_KEYS = new Set([
  'model',
  'model_provider',
  'model_reasoning_effort',
  'model_reasoning_summary',
  'approval_policy',
  'sandbox_mode',
  'model_providers',
  'tools',
  'model_context_window',
  'model_auto_compact_token_limit',
  'thread_unload_delay_secs',
  'shell_environment_policy',
  'mcp_servers',
  // Read by their own modules: server/skills/skillConfig.ts, server/apps/appConfig.ts, server/usage/prices.ts.
  'skills',
  'apps',
  'usage',
  'codex_history',
  'windows',
]);

export async function loadConfig(
  home: string,
  log: Logger,
  flags: Table = {},
  cwd: string | null = null,
): Promise<LoadedConfig> {
  let table: Table;
  try {
    table = mergeLayers(await readLayers(home, flags, cwd)).config;
  } catch (error) {
    if (!(error instanceof BrokenConfigFile)) throw error;
    log.error(`${error.message}; using built-in defaults`);
    table = { ...BUILT_IN_TABLE, ...flags };
  }
  return fromTable(table, log);
}

export function fromTable(table: Table, log: Logger): LoadedConfig {
  const unknown = Object.keys(table).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length) log.info(`config.toml: ignoring keys Threadline does not use: ${unknown.join(', ')}`);
  // A known key with a value we cannot use is named and skipped, so the rest of the file still counts.
  const str = (key: string) => {
    const value = table[key];
    if (value === undefined || typeof value === 'string') return value;
    log.warn(`config.toml: ${key} must be a string; ignoring it`);
    return undefined;
  };
  const positive = (key: string) => {
    const value = table[key];
    if (value === undefined) return null;
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
    log.warn(`config.toml: ${key} must be a whole number above 0; ignoring it`);
    return null;
  };
  const known = <T>(key: string, normalize: (value: string) => T): Extract<T, string> | undefined => {
    const value = str(key);
    if (value === undefined) return undefined;
    // The spelling tables are plain objects: only a string result is a real match ("toString" is not).
    const result = normalize(value);
    if (typeof result === 'string') return result as Extract<T, string>;
    log.warn(`config.toml: ${key} "${value}" is not one we know; ignoring it`);
    return undefined;
  };
  const providers = resolveProviders(table.model_providers, log);
  const modelProvider = str('model_provider') ?? BUILT_IN_DEFAULTS.modelProvider;
  if (!providers.has(modelProvider)) {
    log.warn(
      `config.toml: model_provider "${modelProvider}" is not configured; known: ${[...providers.keys()].join(', ')}`,
    );
  }
  const tools = isTable(table.tools) ? table.tools : {};
  const updatePlan = isTable(tools.update_plan) ? tools.update_plan : {};
  return {
    defaults: {
      model: str('model') ?? BUILT_IN_DEFAULTS.model,
      modelProvider,
      approvalPolicy:
        known('approval_policy', (v) => normalizeApprovalPolicy(v as AskForApprovalInput)) ??
        BUILT_IN_DEFAULTS.approvalPolicy,
      sandboxMode:
        known('sandbox_mode', (v) => normalizeSandboxMode(v as SandboxModeInput)) ??
        BUILT_IN_DEFAULTS.sandboxMode,
      reasoningEffort: str('model_reasoning_effort') ?? null,
      reasoningSummary: str('model_reasoning_summary') ?? null,
    },
    providers,
    updatePlanTool: updatePlan.enabled !== false,
    contextWindow: positive('model_context_window'),
    autoCompactTokens: positive('model_auto_compact_token_limit'),
    threadUnloadDelaySecs: positive('thread_unload_delay_secs'),
    shellEnvironment: shellEnvironmentPolicyFrom(
      table.shell_environment_policy,
      [...providers.values()].flatMap((provider) => (provider.envKey ? [provider.envKey] : [])),
      log,
    ),
    windowsShell: windowsShellFrom(table.windows, log),
    mcpServers: mcpServersFrom(table.mcp_servers, log),
    codexHistory: codexHistorySetting(table.codex_history, log),
  };
}

/** `[windows] shell`: pwsh, powershell or cmd, by name or path (see server/exec/shellSelection.ts). */
function windowsShellFrom(section: unknown, log: Logger): string | null {
  const shell = isTable(section) ? section.shell : undefined;
  if (shell === undefined) return null;
  if (typeof shell === 'string' && shellKindOf(shell)) return shell;
  log.warn('config.toml: windows.shell must name pwsh, powershell or cmd (or a path to one); ignoring it');
  return null;
}
