// Reads $THREADLINE_HOME/config.toml: the defaults new threads start with, the model providers,
// and the agent's options. Keys we do not use (Codex configs have many) are named in one log line;
// a missing file means built-in defaults, and a broken one is reported and ignored.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import {
  normalizeApprovalPolicy,
  normalizeSandboxMode,
  type AskForApprovalInput,
  type SandboxModeInput,
} from '../protocol/enums';
import type { ProviderConfig } from '../providers/types';
import { resolveProviders } from './providers';
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
}

const BUILT_IN_DEFAULTS: ConfigDefaults = {
  model: 'gpt-5.1-codex',
  modelProvider: 'openai',
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
]);

type Table = Record<string, unknown>;

export async function loadConfig(home: string, log: Logger): Promise<LoadedConfig> {
  let text: string | undefined;
  try {
    text = await fs.readFile(join(home, 'config.toml'), 'utf8');
  } catch {
    // No config file: everything built in.
  }
  let table: Table = {};
  if (text !== undefined) {
    try {
      const { parse } = await import('smol-toml');
      table = parse(text) as Table;
    } catch (error) {
      log.warn(`config.toml is not valid TOML, using built-in defaults: ${(error as Error).message}`);
    }
  }
  return fromTable(table, log);
}

export function fromTable(table: Table, log: Logger): LoadedConfig {
  const unknown = Object.keys(table).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length) log.info(`config.toml: ignoring keys Threadline does not use: ${unknown.join(', ')}`);
  const str = (key: string) => (typeof table[key] === 'string' ? (table[key] as string) : undefined);
  const positive = (key: string) => {
    const value = table[key];
    if (value === undefined) return null;
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
    log.warn(`config.toml: ${key} must be a whole number above 0; ignoring it`);
    return null;
  };
  const approval = str('approval_policy') as AskForApprovalInput | undefined;
  const sandbox = str('sandbox_mode') as SandboxModeInput | undefined;
  const tools = (table.tools ?? {}) as Table;
  const updatePlan = (tools.update_plan ?? {}) as Table;
  return {
    defaults: {
      model: str('model') ?? BUILT_IN_DEFAULTS.model,
      modelProvider: str('model_provider') ?? BUILT_IN_DEFAULTS.modelProvider,
      approvalPolicy: (approval && normalizeApprovalPolicy(approval)) || BUILT_IN_DEFAULTS.approvalPolicy,
      sandboxMode: (sandbox && normalizeSandboxMode(sandbox)) || BUILT_IN_DEFAULTS.sandboxMode,
      reasoningEffort: str('model_reasoning_effort') ?? null,
      reasoningSummary: str('model_reasoning_summary') ?? null,
    },
    providers: resolveProviders(table.model_providers, log),
    updatePlanTool: updatePlan.enabled !== false,
    contextWindow: positive('model_context_window'),
    autoCompactTokens: positive('model_auto_compact_token_limit'),
    threadUnloadDelaySecs: positive('thread_unload_delay_secs'),
  };
}
