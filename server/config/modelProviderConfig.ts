// modelProvider/config/write's patch as edits of `[model_providers.<id>]` in config.toml. Only the
// provider's name, base URL and the *name* of the environment variable holding its key are written:
// a key itself belongs in that variable, VS Code's secret storage or the 0600 auth.json, so anything
// in the patch that looks like a credential is refused rather than written (docs/configuration.md).
import { environmentSecrets } from '../feedback/scrub';
import { scrubShapes } from '../feedback/secretShapes';
import type { ConfigEdit } from '../protocol/configMethods';
import type { ProviderSettingsPatch } from '../protocol/modelProviderConfigMethods';
import type { ProviderConfig } from '../providers/types';
import { InvalidConfigEdit } from './configWriter';

/** A patch this server cannot apply (a provider it has not, one that is not editable): -32600. */
export class ProviderNotEditable extends Error {}

const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const MAX_NAME = 200;
const MAX_URL = 2048;

/** The provider the patch writes and the config edits that write it. */
export function providerEdits(
  patch: ProviderSettingsPatch,
  providers: ReadonlyMap<string, ProviderConfig>,
): { providerId: string; edits: ConfigEdit[] } {
  if (patch.type !== 'customGateway') {
    const what = patch.type === 'bedrock' ? 'Amazon Bedrock' : 'Google Cloud';
    throw new ProviderNotEditable(
      `Threadline has no ${what} provider (${patch.providerId}); add an endpoint as a customGateway provider`,
    );
  }
  const name = patch.name === undefined ? undefined : checkedName(patch.name);
  const baseUrl = patch.baseUrl == null ? patch.baseUrl : checkedUrl(patch.baseUrl);
  const envKey = patch.envKey == null ? patch.envKey : checkedEnvName(patch.envKey);

  let providerId = patch.providerId ?? null;
  if (providerId === null) {
    if (!baseUrl) throw new InvalidConfigEdit('settings.baseUrl: a new provider needs its base URL');
    providerId = freeId(name ?? 'custom', providers);
  } else {
    if (!PROVIDER_ID.test(providerId))
      throw new InvalidConfigEdit(`settings.providerId: "${providerId.slice(0, 80)}" is not a provider id`);
    if (!providers.has(providerId))
      throw new ProviderNotEditable(
        `model provider not found: ${providerId} (modelProvider/list lists them)`,
      );
    if (providerId === 'openai')
      throw new ProviderNotEditable(
        'the openai provider is not a customGateway: its settings are not editable',
      );
  }

  const key = (field: string) => `model_providers.${providerId}.${field}`;
  const edits: ConfigEdit[] = [];
  const set = (field: string, value: string | null | undefined) => {
    if (value !== undefined) edits.push({ keyPath: key(field), value, mergeStrategy: 'replace' });
  };
  set('name', name);
  set('base_url', baseUrl);
  set('env_key', envKey);
  return { providerId, edits };
}

/** Whether a string holds a credential: one of a known shape, or the value of a key in our environment. */
function holdsSecret(value: string): boolean {
  return scrubShapes(value) !== value || environmentSecrets().some((secret) => value.includes(secret));
}

function refuseSecret(field: string, value: string): void {
  if (holdsSecret(value)) {
    throw new InvalidConfigEdit(
      `settings.${field}: looks like it holds a key; keys are never written to config.toml (sign in with the key instead, or set envKey to the name of the variable that holds it)`,
    );
  }
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new InvalidConfigEdit('settings.name: must not be empty');
  if (/[\r\n]/.test(trimmed)) throw new InvalidConfigEdit('settings.name: must be one line');
  if (trimmed.length > MAX_NAME)
    throw new InvalidConfigEdit(`settings.name: longer than ${MAX_NAME} characters`);
  refuseSecret('name', trimmed);
  return trimmed;
}

function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidConfigEdit('settings.baseUrl: not a URL');
  }
  if (url.length > MAX_URL)
    throw new InvalidConfigEdit(`settings.baseUrl: longer than ${MAX_URL} characters`);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new InvalidConfigEdit('settings.baseUrl: must be an http(s) URL');
  if (parsed.username || parsed.password)
    throw new InvalidConfigEdit(
      'settings.baseUrl: a user or password in the URL is a credential; it is never written to config.toml',
    );
  // A query is where gateways take keys (?api_key=); config.toml's query_params is edited by hand.
  if (parsed.search || parsed.hash)
    throw new InvalidConfigEdit(
      'settings.baseUrl: no query or fragment (set query_params in config.toml for those)',
    );
  refuseSecret('baseUrl', url);
  return url.replace(/\/+$/, '');
}

function checkedEnvName(envKey: string): string {
  if (!ENV_NAME.test(envKey))
    throw new InvalidConfigEdit(
      `settings.envKey: the name of an environment variable (letters, digits, _), not ${envKey.length > 12 ? 'a value' : JSON.stringify(envKey)}`,
    );
  refuseSecret('envKey', envKey);
  return envKey;
}

/** An id made from the name that no provider has yet: `my-gateway`, `my-gateway-2`, … */
function freeId(name: string, providers: ReadonlyMap<string, ProviderConfig>): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'custom';
  let id = base;
  for (let n = 2; providers.has(id); n++) id = `${base}-${n}`;
  return id;
}
