// Admin requirements from $THREADLINE_HOME/requirements.toml (the reference reads
// /etc/codex/requirements.toml): which approval policies, sandbox modes and web search modes a
// thread may use, pinned feature flags, network limits. A broken file fails closed: the strictest
// policy and mode only, until someone fixes it.
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
import type { ConfigRequirements, WebSearchMode } from '../protocol/configMethods';
import { isPlainTable, readTomlFile, type Table } from './tomlFile';

export const requirementsFile = (home: string) => join(home, 'requirements.toml');

const STRICTEST: ConfigRequirements = {
  allowedApprovalPolicies: ['untrusted'],
  allowedSandboxModes: ['read-only'],
};

const WEB_SEARCH_MODES: readonly WebSearchMode[] = ['disabled', 'cached', 'indexed', 'live'];

export async function loadRequirements(home: string, log: Logger): Promise<ConfigRequirements | null> {
  let file;
  try {
    file = await readTomlFile(requirementsFile(home));
  } catch (error) {
    log.error(
      `${(error as Error).message}; until then only untrusted approvals and read-only sandboxes are allowed`,
    );
    return STRICTEST;
  }
  if (file.text === null) return null;
  const problems: string[] = [];
  const requirements = fromTable(file.table, problems);
  if (problems.length === 0) return requirements;
  log.error(
    `requirements.toml: ${problems.join('; ')}; until fixed only untrusted approvals and read-only sandboxes are allowed`,
  );
  return { ...requirements, ...STRICTEST };
}

function fromTable(table: Table, problems: string[]): ConfigRequirements {
  const list = <T>(key: string, normalize: (value: string) => T | undefined): T[] | null => {
    const value = table[key];
    if (value === undefined) return null;
    if (!Array.isArray(value)) {
      problems.push(`${key} must be a list`);
      return null;
    }
    const known: T[] = [];
    for (const entry of value) {
      const normalized = typeof entry === 'string' ? normalize(entry) : undefined;
      if (normalized === undefined) problems.push(`${key}: ${JSON.stringify(entry)} is not one we know`);
      else known.push(normalized);
    }
    return known;
  };
  const features = table.features;
  const featureRequirements = isPlainTable(features)
    ? Object.fromEntries(
        Object.entries(features).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'),
      )
    : null;
  return {
    allowedApprovalPolicies: list('allowed_approval_policies', (v) =>
      known(normalizeApprovalPolicy(v as AskForApprovalInput)),
    ),
    allowedSandboxModes: list('allowed_sandbox_modes', (v) =>
      known(normalizeSandboxMode(v as SandboxModeInput)),
    ),
    allowedWebSearchModes: list('allowed_web_search_modes', (v) =>
      WEB_SEARCH_MODES.includes(v as WebSearchMode) ? (v as WebSearchMode) : undefined,
    ),
    featureRequirements,
    network: networkFrom(table.network),
  };
}

// The spelling tables are plain objects: only a string result is a real match ("toString" is not).
const known = <T>(value: T): T | undefined => (typeof value === 'string' ? value : undefined);

function networkFrom(value: unknown): ConfigRequirements['network'] {
  if (!isPlainTable(value)) return null;
  const bool = (key: string) => (typeof value[key] === 'boolean' ? value[key] : null);
  const strings = (key: string) => {
    const v = value[key];
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : null;
  };
  return {
    enabled: bool('enabled'),
    allowedDomains: strings('allowed_domains'),
    deniedDomains: strings('denied_domains'),
    allowUnixSockets: strings('allow_unix_sockets'),
    dangerouslyAllowAllUnixSockets: bool('dangerously_allow_all_unix_sockets'),
    allowLocalBinding: bool('allow_local_binding'),
  };
}

/** The mode a sandbox policy amounts to; an external sandbox is none of ours, so it counts as none. */
export function sandboxModeOf(policy: SandboxPolicy): SandboxMode {
  if (policy.type === 'readOnly') return 'read-only';
  if (policy.type === 'workspaceWrite') return 'workspace-write';
  return 'danger-full-access';
}

const same = (a: AskForApproval, b: AskForApproval) => JSON.stringify(a) === JSON.stringify(b);

export function approvalAllowed(requirements: ConfigRequirements | null, policy: AskForApproval): boolean {
  const allowed = requirements?.allowedApprovalPolicies;
  return !allowed || allowed.some((entry) => same(entry, policy));
}

export function sandboxAllowed(requirements: ConfigRequirements | null, mode: SandboxMode): boolean {
  const allowed = requirements?.allowedSandboxModes;
  return !allowed || allowed.includes(mode);
}
