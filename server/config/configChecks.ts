// What config writes may put in config.toml: each edited key that Threadline reads must hold a value
// it can use, and policies must be ones requirements.toml allows. Other keys pass as written
// (Codex configs have many Threadline does not read).
import { Value } from '@sinclair/typebox/value';
import type { ConfigRequirements } from '../protocol/configMethods';
import {
  AskForApproval,
  normalizeApprovalPolicy,
  normalizeSandboxMode,
  type AskForApprovalInput,
  type SandboxModeInput,
} from '../protocol/enums';
import { InvalidConfigEdit } from './configWriter';
import { FEATURES } from './features';
import { approvalAllowed, sandboxAllowed } from './requirements';
import { isPlainTable, type Table } from './tomlFile';
import { usageTableProblem } from '../usage/prices';

const STRINGS = ['model', 'model_provider', 'model_reasoning_effort', 'model_reasoning_summary'];
const POSITIVE = ['model_context_window', 'model_auto_compact_token_limit', 'thread_unload_delay_secs'];

export function checkEditedConfig(requirements: ConfigRequirements | null) {
  return (table: Table, keyPaths: string[][]): void => {
    const tops = new Set(keyPaths.map((path) => path[0]!));
    for (const key of tops) {
      const value = table[key];
      if (value === undefined) continue;
      const fail = (why: string) => {
        throw new InvalidConfigEdit(`${key}: ${why}`);
      };
      if (STRINGS.includes(key) && (typeof value !== 'string' || value === ''))
        fail('must be a non-empty string');
      if (POSITIVE.includes(key) && !(typeof value === 'number' && Number.isInteger(value) && value > 0))
        fail('must be a whole number above 0');
      if (key === 'approval_policy') {
        const policy =
          typeof value === 'string' ? normalizeApprovalPolicy(value as AskForApprovalInput) : value;
        if (typeof policy !== 'string' && !Value.Check(AskForApproval, policy))
          fail(`${JSON.stringify(value)} is not an approval policy (untrusted, on-request, never)`);
        if (typeof policy === 'string' && !['untrusted', 'on-request', 'never'].includes(policy))
          fail(`${JSON.stringify(value)} is not an approval policy (untrusted, on-request, never)`);
        if (!approvalAllowed(requirements, policy as AskForApproval)) fail('forbidden by requirements.toml');
      }
      if (key === 'sandbox_mode') {
        const mode = typeof value === 'string' ? normalizeSandboxMode(value as SandboxModeInput) : undefined;
        if (typeof mode !== 'string')
          fail(
            `${JSON.stringify(value)} is not a sandbox mode (read-only, workspace-write, danger-full-access)`,
          );
        else if (!sandboxAllowed(requirements, mode)) fail('forbidden by requirements.toml');
      }
      if (key === 'usage') {
        const problem = usageTableProblem(value);
        if (problem) throw new InvalidConfigEdit(problem);
      }
      if (key === 'features') {
        if (!isPlainTable(value)) fail('must be a table of feature names to true or false');
        for (const [name, enabled] of Object.entries(value as Table)) {
          if (typeof enabled !== 'boolean') fail(`${name} must be true or false`);
          const pinned = requirements?.featureRequirements?.[name];
          if (pinned !== undefined && pinned !== enabled && FEATURES.some((f) => f.name === name))
            fail(`${name} is pinned to ${pinned} by requirements.toml`);
        }
      }
    }
  };
}
