// The merged config as config/read shows it: keys the protocol types (approval_policy,
// sandbox_mode, …) in the protocol's spelling, values Threadline cannot use left out (as the server
// itself ignores them), everything else as written.
import { Value } from '@sinclair/typebox/value';
import type { Table } from '../config/tomlFile';
import type { Logger } from '../log';
import type { ConfigLayerMetadata } from '../protocol/configMethods';
import { configSchemas } from '../protocol/lazySchemas';
import {
  normalizeApprovalPolicy,
  normalizeSandboxMode,
  type AskForApprovalInput,
  type SandboxModeInput,
} from '../protocol/enums';

const normalize: Record<string, (value: string) => unknown> = {
  approval_policy: (v) => normalizeApprovalPolicy(v as AskForApprovalInput),
  sandbox_mode: (v) => normalizeSandboxMode(v as SandboxModeInput),
};

export function readableConfig(
  merged: Table,
  origins: Record<string, ConfigLayerMetadata>,
  log: Logger,
): Table {
  const config = { ...merged };
  for (const [key, schema] of Object.entries(configSchemas().Config.properties)) {
    const raw = config[key];
    if (raw === undefined) continue;
    const value = typeof raw === 'string' && normalize[key] ? normalize[key](raw) : raw;
    if (Value.Check(schema, value)) {
      config[key] = value;
      continue;
    }
    log.debug(`config/read: leaving out ${key}, whose value Threadline cannot use`);
    delete config[key];
    for (const path of Object.keys(origins))
      if (path === key || path.startsWith(`${key}.`)) delete origins[path];
  }
  return config;
}
