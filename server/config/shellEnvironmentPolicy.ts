// config.toml's [shell_environment_policy]: the environment commands get (see
// server/exec/commandEnv.ts). A field we cannot use is named in the log and left at its default, so
// a typo never widens what commands see.
import type { Logger } from '../log';
import {
  DEFAULT_SHELL_ENVIRONMENT_POLICY,
  type EnvironmentInherit,
  type ShellEnvironmentPolicy,
} from '../exec/commandEnv';
import { isTable } from './providers';

const INHERIT = new Set<EnvironmentInherit>(['core', 'all', 'none']);
const FIELDS = new Set(['inherit', 'ignore_default_excludes', 'exclude', 'set', 'include_only']);

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

export function shellEnvironmentPolicyFrom(
  section: unknown,
  providerKeys: string[],
  log: Logger,
): ShellEnvironmentPolicy {
  const policy = { ...DEFAULT_SHELL_ENVIRONMENT_POLICY, neverInherit: providerKeys };
  if (section === undefined) return policy;
  const where = 'config.toml: shell_environment_policy';
  if (!isTable(section)) {
    log.warn(`${where} must be a table; commands get the default environment`);
    return policy;
  }
  const unknown = Object.keys(section).filter((key) => !FIELDS.has(key));
  if (unknown.length) log.info(`${where}: ignoring ${unknown.join(', ')}`);
  const { inherit, ignore_default_excludes, exclude, set, include_only } = section;
  if (inherit !== undefined) {
    if (typeof inherit === 'string' && INHERIT.has(inherit as EnvironmentInherit)) {
      policy.inherit = inherit as EnvironmentInherit;
    } else log.warn(`${where}.inherit must be "core", "all" or "none"; using "core"`);
  }
  if (ignore_default_excludes !== undefined) {
    if (typeof ignore_default_excludes === 'boolean') policy.ignoreDefaultExcludes = ignore_default_excludes;
    else log.warn(`${where}.ignore_default_excludes must be true or false; ignoring it`);
  }
  // Ignoring a broken exclude or include_only would widen the environment: inherit nothing instead.
  for (const [key, value] of [
    ['exclude', exclude],
    ['include_only', include_only],
  ] as const) {
    if (value === undefined) continue;
    if (!isStringList(value)) {
      log.warn(`${where}.${key} must be a list of name patterns; commands inherit no variables`);
      policy.inherit = 'none';
    } else if (key === 'exclude') policy.exclude = value;
    else policy.includeOnly = value;
  }
  if (set !== undefined) {
    if (isTable(set) && Object.values(set).every((v) => typeof v === 'string')) {
      policy.set = set as Record<string, string>;
    } else log.warn(`${where}.set must be a table of strings; ignoring it`);
  }
  return policy;
}
