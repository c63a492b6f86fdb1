// The settings a thread runs with: config.toml's defaults, then the client's overrides. The agent
// issue grows this into the full provider configuration.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import {
  normalizeApprovalPolicy,
  normalizeSandboxMode,
  type AskForApproval,
  type AskForApprovalInput,
  type SandboxMode,
  type SandboxModeInput,
  type SandboxPolicy,
} from '../protocol/enums';

export interface ThreadSettings {
  model: string;
  modelProvider: string;
  cwd: string;
  approvalPolicy: AskForApproval;
  sandboxMode: SandboxMode;
  reasoningEffort: string | null;
}

export interface SettingsOverrides {
  model?: string | null;
  modelProvider?: string | null;
  cwd?: string | null;
  approvalPolicy?: AskForApprovalInput | null;
  sandbox?: SandboxModeInput | null;
}

export interface ConfigDefaults {
  model: string;
  modelProvider: string;
  approvalPolicy: AskForApproval;
  sandboxMode: SandboxMode;
  reasoningEffort: string | null;
}

const BUILT_IN: ConfigDefaults = {
  model: 'gpt-5.1-codex',
  modelProvider: 'openai',
  approvalPolicy: 'on-request',
  sandboxMode: 'workspace-write',
  reasoningEffort: null,
};

/** Reads config.toml's top-level defaults; a missing file means built-in defaults. */
export async function loadConfigDefaults(home: string, log: Logger): Promise<ConfigDefaults> {
  let text: string;
  try {
    text = await fs.readFile(join(home, 'config.toml'), 'utf8');
  } catch {
    return BUILT_IN;
  }
  try {
    const { parse } = await import('smol-toml');
    const config = parse(text) as Record<string, unknown>;
    const str = (key: string) => (typeof config[key] === 'string' ? (config[key] as string) : undefined);
    const approval = str('approval_policy') as AskForApprovalInput | undefined;
    const sandbox = str('sandbox_mode') as SandboxModeInput | undefined;
    return {
      model: str('model') ?? BUILT_IN.model,
      modelProvider: str('model_provider') ?? BUILT_IN.modelProvider,
      approvalPolicy: approval
        ? (normalizeApprovalPolicy(approval) ?? BUILT_IN.approvalPolicy)
        : BUILT_IN.approvalPolicy,
      sandboxMode: sandbox ? (normalizeSandboxMode(sandbox) ?? BUILT_IN.sandboxMode) : BUILT_IN.sandboxMode,
      reasoningEffort: str('model_reasoning_effort') ?? null,
    };
  } catch (error) {
    log.warn(`config.toml is not valid TOML, using built-in defaults: ${(error as Error).message}`);
    return BUILT_IN;
  }
}

export function applyOverrides(
  base: ThreadSettings | (ConfigDefaults & { cwd: string }),
  o: SettingsOverrides,
): ThreadSettings {
  return {
    model: o.model ?? base.model,
    modelProvider: o.modelProvider ?? base.modelProvider,
    cwd: o.cwd ?? base.cwd,
    approvalPolicy: o.approvalPolicy ? normalizeApprovalPolicy(o.approvalPolicy) : base.approvalPolicy,
    sandboxMode: o.sandbox ? normalizeSandboxMode(o.sandbox) : base.sandboxMode,
    reasoningEffort: base.reasoningEffort,
  };
}

/** The sandbox policy a thread-level mode stands for, with the cwd as its writable root. */
export function sandboxPolicyFor(mode: SandboxMode, cwd: string): SandboxPolicy {
  if (mode === 'danger-full-access') return { type: 'dangerFullAccess' };
  if (mode === 'read-only') return { type: 'readOnly', networkAccess: false };
  return {
    type: 'workspaceWrite',
    writableRoots: [cwd],
    networkAccess: false,
    excludeTmpdirEnvVar: false,
    excludeSlashTmp: false,
  };
}
