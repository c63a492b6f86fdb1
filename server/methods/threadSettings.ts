// The settings a stored thread runs with: those it runs with while loaded, else those its last turn
// ran with (savedThreadSettings.ts), else the defaults of config.toml and the thread's project with
// what the thread recorded; then the caller's overrides.
import { resolve } from 'node:path';
import { applyOverrides, type SettingsOverrides, type ThreadSettings } from '../config/settings';
import type { Services } from '../services';
import type { ThreadSummary } from '../threads/summary';
import { savedThreadSettings } from './savedThreadSettings';

export async function settingsFor(
  services: Services,
  summary: ThreadSummary,
  overrides: SettingsOverrides = {},
): Promise<ThreadSettings> {
  const defaults = await services.config(summary.cwd);
  const recorded = {
    ...defaults,
    model: summary.model ?? defaults.model,
    modelProvider: summary.modelProvider,
    cwd: summary.cwd,
  };
  const base =
    services.loaded.get(summary.id)?.settings ??
    (await savedThreadSettings(services.home, summary.id, applyOverrides(recorded, {}))) ??
    recorded;
  const settings = applyOverrides(base, {
    ...overrides,
    cwd: overrides.cwd ? resolve(overrides.cwd) : undefined,
  });
  await services.enforceRequirements(settings);
  return settings;
}
