// Threadline's feature flags: `[features] name = true|false` in config.toml, pinned by
// requirements.toml's `[features]`. Each one changes what the agent is offered.
import type { ConfigRequirements, ExperimentalFeature } from '../protocol/configMethods';
import { isPlainTable, type Table } from './tomlFile';

/** A feature requirements.toml pins, asked for the other way at run time. */
export class PinnedFeature extends Error {}

interface FeatureSpec {
  name: string;
  stage: ExperimentalFeature['stage'];
  defaultEnabled: boolean;
  /** Shown for beta features only, as the reference does. */
  displayName: string;
  description: string;
}

export const FEATURES: readonly FeatureSpec[] = [
  {
    name: 'update_plan',
    stage: 'stable',
    defaultEnabled: true,
    displayName: 'Plan tool',
    description: 'The model keeps a visible step-by-step plan with the update_plan tool.',
  },
  {
    name: 'view_image',
    stage: 'beta',
    defaultEnabled: true,
    displayName: 'View images',
    description: 'The model may look at image files in the workspace with the view_image tool.',
  },
];

/**
 * Which features are on for this merged config (the legacy `[tools.update_plan] enabled` counts too):
 * a requirement's pin, else what experimentalFeature/enablement/set chose at run time, else config.
 */
export function enabledFeatures(
  config: Table,
  requirements: ConfigRequirements | null,
  runtime: ReadonlyMap<string, boolean> = new Map(),
): Map<string, boolean> {
  const table = isPlainTable(config.features) ? config.features : {};
  const tools = isPlainTable(config.tools) ? config.tools : {};
  const legacy = (name: string) => {
    const tool = tools[name];
    return isPlainTable(tool) && typeof tool.enabled === 'boolean' ? tool.enabled : undefined;
  };
  return new Map(
    FEATURES.map((feature) => {
      const pinned = requirements?.featureRequirements?.[feature.name];
      const configured = table[feature.name];
      const chosen = typeof configured === 'boolean' ? configured : legacy(feature.name);
      return [feature.name, pinned ?? runtime.get(feature.name) ?? chosen ?? feature.defaultEnabled];
    }),
  );
}

export function describeFeatures(enabled: Map<string, boolean>): ExperimentalFeature[] {
  return FEATURES.map((feature) => {
    const beta = feature.stage === 'beta';
    return {
      name: feature.name,
      stage: feature.stage,
      displayName: beta ? feature.displayName : null,
      description: beta ? feature.description : null,
      announcement: null,
      enabled: enabled.get(feature.name) ?? feature.defaultEnabled,
      defaultEnabled: feature.defaultEnabled,
    };
  });
}
