// The settings a thread runs with: config.toml's defaults, then the client's overrides at thread
// start, resume or fork, then each turn's overrides, which stay as defaults for later turns.
import {
  isOnFailure,
  normalizeApprovalPolicy,
  normalizeSandboxMode,
  type AskForApproval,
  type AskForApprovalInput,
  type SandboxMode,
  type SandboxModeInput,
  normalizeSandboxPolicy,
  type SandboxPolicy,
  type SandboxPolicyInput,
} from '../protocol/enums';
import type { DynamicToolSpec } from '../protocol/threadMethods';

export interface ThreadSettings {
  model: string;
  modelProvider: string;
  cwd: string;
  approvalPolicy: AskForApproval;
  /** The policy was onFailure: a command that fails in the sandbox may, once approved, run outside it. */
  approvalOnFailure: boolean;
  sandboxMode: SandboxMode;
  /** A full policy from turn/start; wins over the mode when set. */
  sandboxPolicy: SandboxPolicy | null;
  reasoningEffort: string | null;
  reasoningSummary: string | null;
  baseInstructions: string | null;
  developerInstructions: string | null;
  personality: string | null;
  /** The collaboration mode of the latest turn that named one; null instructions mean the built-in ones. */
  collaborationMode: { mode: 'plan' | 'default'; developerInstructions: string | null } | null;
  /** Tools the client declared at thread/start and runs itself (experimental). */
  dynamicTools: DynamicToolSpec[];
}

export interface SettingsOverrides {
  model?: string | null;
  modelProvider?: string | null;
  cwd?: string | null;
  approvalPolicy?: AskForApprovalInput | null;
  sandbox?: SandboxModeInput | null;
  baseInstructions?: string | null;
  developerInstructions?: string | null;
  personality?: string | null;
  dynamicTools?: DynamicToolSpec[] | null;
}

/** What turn/start may change; each stays in force for the thread's later turns. */
export interface TurnOverrides {
  cwd?: string | null;
  approvalPolicy?: AskForApprovalInput | null;
  sandboxPolicy?: SandboxPolicyInput | null;
  model?: string | null;
  effort?: string | null;
  summary?: string | null;
  personality?: string | null;
  collaborationMode?: {
    mode: 'plan' | 'default';
    settings: { model: string; reasoning_effort?: string | null; developer_instructions?: string | null };
  } | null;
}

export interface ConfigDefaults {
  model: string;
  modelProvider: string;
  approvalPolicy: AskForApproval;
  sandboxMode: SandboxMode;
  reasoningEffort: string | null;
  reasoningSummary: string | null;
}

export function applyOverrides(
  base: ThreadSettings | (ConfigDefaults & { cwd: string }),
  o: SettingsOverrides,
): ThreadSettings {
  const previous: Partial<ThreadSettings> = base;
  return {
    model: o.model ?? base.model,
    modelProvider: o.modelProvider ?? base.modelProvider,
    cwd: o.cwd ?? base.cwd,
    approvalPolicy: o.approvalPolicy ? normalizeApprovalPolicy(o.approvalPolicy) : base.approvalPolicy,
    approvalOnFailure: o.approvalPolicy
      ? isOnFailure(o.approvalPolicy)
      : (previous.approvalOnFailure ?? false),
    sandboxMode: o.sandbox ? normalizeSandboxMode(o.sandbox) : base.sandboxMode,
    // A new thread-level mode replaces a policy an earlier turn set.
    sandboxPolicy: o.sandbox ? null : (previous.sandboxPolicy ?? null),
    reasoningEffort: base.reasoningEffort,
    reasoningSummary: previous.reasoningSummary ?? null,
    baseInstructions: o.baseInstructions ?? previous.baseInstructions ?? null,
    developerInstructions: o.developerInstructions ?? previous.developerInstructions ?? null,
    personality: o.personality ?? previous.personality ?? null,
    collaborationMode: previous.collaborationMode ?? null,
    dynamicTools: o.dynamicTools ?? previous.dynamicTools ?? [],
  };
}

export function applyTurnOverrides(base: ThreadSettings, o: TurnOverrides): ThreadSettings {
  const mode = o.collaborationMode?.settings;
  return {
    ...base,
    cwd: o.cwd ?? base.cwd,
    approvalPolicy: o.approvalPolicy ? normalizeApprovalPolicy(o.approvalPolicy) : base.approvalPolicy,
    approvalOnFailure: o.approvalPolicy ? isOnFailure(o.approvalPolicy) : base.approvalOnFailure,
    sandboxPolicy: o.sandboxPolicy ? normalizeSandboxPolicy(o.sandboxPolicy) : base.sandboxPolicy,
    // An empty model in the mode's settings keeps the thread's (a client that does not know it yet).
    model: o.model ?? (mode?.model || undefined) ?? base.model,
    reasoningEffort: o.effort ?? mode?.reasoning_effort ?? base.reasoningEffort,
    reasoningSummary: o.summary ?? base.reasoningSummary,
    personality: o.personality ?? base.personality,
    collaborationMode: o.collaborationMode
      ? { mode: o.collaborationMode.mode, developerInstructions: mode?.developer_instructions ?? null }
      : base.collaborationMode,
  };
}

/** The policy commands run under: an explicit one from a turn, else the thread's mode. */
export function effectiveSandboxPolicy(settings: ThreadSettings): SandboxPolicy {
  return settings.sandboxPolicy ?? sandboxPolicyFor(settings.sandboxMode, settings.cwd);
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
