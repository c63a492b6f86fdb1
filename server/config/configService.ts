// The config as methods see it: the layers and their merge (config/read), writes to the user's
// config.toml, the admin requirements and the feature flags. Requirements are read once, at first
// use, as the reference does; config.toml is read again after every write.
import { resolve } from 'node:path';
import type { Logger } from '../log';
import type { ConfigEdit, ConfigRequirements, ConfigWriteResponse } from '../protocol/configMethods';
import type { AskForApproval, SandboxMode } from '../protocol/enums';
import { checkEditedConfig } from './configChecks';
import { InvalidConfigEdit, writeConfigEdits } from './configWriter';
import { enabledFeatures, FEATURES, PinnedFeature } from './features';
import { parseKeyPath } from './keyPath';
import { mergeLayers, readLayers, userConfigFile, type Layer, type Merged } from './layers';
import { approvalAllowed, loadRequirements, sandboxAllowed } from './requirements';
import type { Table } from './tomlFile';

export class ConfigService {
  private requirementsPromise: Promise<ConfigRequirements | null> | undefined;
  private readonly runtimeFeatures = new Map<string, boolean>();

  constructor(
    readonly home: string,
    /** `-c key=value` from the command line. */
    readonly flags: Table,
    private readonly log: Logger,
    /** Called after a write, so the next thread reads the new file. */
    private readonly onWrite: () => void,
  ) {}

  requirements(): Promise<ConfigRequirements | null> {
    this.requirementsPromise ??= loadRequirements(this.home, this.log);
    return this.requirementsPromise;
  }

  async read(cwd: string | null): Promise<Merged & { layers: Layer[] }> {
    const layers = await readLayers(this.home, this.flags, cwd === null ? null : resolve(cwd));
    return { ...mergeLayers(layers), layers };
  }

  async features(cwd: string | null): Promise<Map<string, boolean>> {
    return enabledFeatures((await this.read(cwd)).config, await this.requirements(), this.runtimeFeatures);
  }

  /**
   * experimentalFeature/enablement/set: turns features on or off for this process, above config.toml
   * and below requirements.toml. All or nothing: an unknown or pinned feature refuses the whole set.
   */
  async setFeatureEnablement(enablement: Record<string, boolean>): Promise<Record<string, boolean>> {
    const known = new Set(FEATURES.map((feature) => feature.name));
    const pins = (await this.requirements())?.featureRequirements ?? {};
    for (const [name, enabled] of Object.entries(enablement)) {
      if (!known.has(name))
        throw new InvalidConfigEdit(`enablement.${name}: no such feature (known: ${[...known].join(', ')})`);
      const pinned = pins[name];
      if (pinned !== undefined && pinned !== enabled)
        throw new PinnedFeature(`${name} is pinned to ${pinned} by requirements.toml`);
    }
    for (const [name, enabled] of Object.entries(enablement)) this.runtimeFeatures.set(name, enabled);
    return enablement;
  }

  async write(
    edits: ConfigEdit[],
    filePath: string | null | undefined,
    expectedVersion: string | null | undefined,
  ): Promise<ConfigWriteResponse> {
    const file = userConfigFile(this.home);
    // Only the user's own file: project files are the workspace's, requirements.toml the admin's.
    if (filePath && resolve(filePath) !== file)
      throw new InvalidConfigEdit(`filePath: only ${file} can be written`);
    const version = await writeConfigEdits(file, edits, {
      expectedVersion: expectedVersion ?? null,
      check: checkEditedConfig(await this.requirements()),
    });
    this.onWrite();
    return { status: 'ok', version, filePath: file, ...(await this.overridden(edits)) };
  }

  /** A write a higher layer (a -c flag) hides still succeeds, and says so. */
  private async overridden(edits: ConfigEdit[]): Promise<Partial<ConfigWriteResponse>> {
    const { origins, config } = await this.read(null);
    for (const edit of edits) {
      const path = parseKeyPath(edit.keyPath) ?? [];
      const origin = origins[path.join('.')];
      if (origin && origin.name.type !== 'user') {
        const effectiveValue = path.reduce<unknown>(
          (table, key) => (table as Table | undefined)?.[key],
          config,
        );
        return {
          status: 'okOverridden',
          overriddenMetadata: {
            message: `${path.join('.')} is overridden by the ${origin.name.type} layer`,
            overridingLayer: origin,
            effectiveValue,
          },
        };
      }
    }
    return {};
  }

  /** Why a thread may not run with this policy and mode, or null. */
  async forbidden(approvalPolicy: AskForApproval, sandbox: SandboxMode): Promise<string | null> {
    const requirements = await this.requirements();
    if (!approvalAllowed(requirements, approvalPolicy))
      return `approval policy ${JSON.stringify(approvalPolicy)} is forbidden by requirements.toml (allowed: ${list(requirements?.allowedApprovalPolicies)})`;
    if (!sandboxAllowed(requirements, sandbox))
      return `sandbox mode "${sandbox}" is forbidden by requirements.toml (allowed: ${list(requirements?.allowedSandboxModes)})`;
    return null;
  }
}

const list = (values: unknown[] | null | undefined) =>
  (values ?? []).map((v) => JSON.stringify(v)).join(', ') || 'none';
