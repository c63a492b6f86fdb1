// Model providers: the built-in ones, then `[model_providers.<id>]` from config.toml, which may
// add providers or override fields of built-in ones. Codex's keys, so people can bring their config.
import type { Logger } from '../log';
import type { ProviderConfig, WireApi } from '../providers/types';

const DEFAULTS = { requestMaxRetries: 4, streamMaxRetries: 5, streamIdleTimeoutMs: 300_000 };
const MAX_RETRIES = 100;

const builtIn = (
  p: Pick<ProviderConfig, 'id' | 'name' | 'baseUrl' | 'wireApi' | 'envKey'> & Partial<ProviderConfig>,
) => ({
  httpHeaders: {},
  queryParams: {},
  ...DEFAULTS,
  requiresOpenaiAuth: false,
  maxTokens: null,
  ...p,
});

export const BUILT_IN_PROVIDERS: readonly ProviderConfig[] = [
  builtIn({
    id: 'openai',
    name: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    wireApi: 'responses',
    envKey: 'OPENAI_API_KEY',
    requiresOpenaiAuth: true,
  }),
  builtIn({
    id: 'ollama',
    name: 'Ollama',
    baseUrl: 'http://localhost:11434/v1',
    wireApi: 'chat',
    envKey: null,
  }),
  builtIn({
    id: 'lmstudio',
    name: 'LM Studio',
    baseUrl: 'http://localhost:1234/v1',
    wireApi: 'chat',
    envKey: null,
  }),
  // The API root with /v1, like the others; the Anthropic SDK adds /v1 itself, so its wire strips it.
  builtIn({
    id: 'anthropic',
    name: 'Anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    wireApi: 'anthropic',
    envKey: 'ANTHROPIC_API_KEY',
    maxTokens: 8192,
  }),
];

const WIRES = new Set<WireApi>(['responses', 'chat', 'anthropic']);
const PROVIDER_KEYS = new Set([
  'name',
  'base_url',
  'wire_api',
  'env_key',
  'env_key_instructions',
  'http_headers',
  'env_http_headers',
  'query_params',
  'request_max_retries',
  'stream_max_retries',
  'stream_idle_timeout_ms',
  'requires_openai_auth',
  'max_tokens',
]);

type Table = Record<string, unknown>;
export const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The providers a config.toml defines, merged over the built-ins; bad entries are logged and skipped. */
export function resolveProviders(section: unknown, log: Logger): Map<string, ProviderConfig> {
  const providers = new Map(BUILT_IN_PROVIDERS.map((p) => [p.id, p]));
  if (section === undefined) return providers;
  if (!isTable(section)) {
    log.warn('config.toml: [model_providers] must be a table; using the built-in providers');
    return providers;
  }
  for (const [id, entry] of Object.entries(section)) {
    try {
      providers.set(id, provider(id, entry, providers.get(id), log));
    } catch (error) {
      log.warn(`config.toml: skipping model provider "${id}": ${(error as Error).message}`);
    }
  }
  return providers;
}

function provider(id: string, entry: unknown, base: ProviderConfig | undefined, log: Logger): ProviderConfig {
  if (!isTable(entry)) throw new Error('it must be a table');
  const unknown = Object.keys(entry).filter((key) => !PROVIDER_KEYS.has(key));
  if (unknown.length) log.info(`config.toml: model provider "${id}" ignores ${unknown.join(', ')}`);
  const str = (key: string) =>
    optional(entry, key, 'a string', (v) => typeof v === 'string') as string | undefined;
  const count = (key: string) =>
    optional(entry, key, 'a whole number ≥ 0', (v) => Number.isInteger(v) && (v as number) >= 0) as
      number | undefined;
  const strings = (key: string) =>
    optional(
      entry,
      key,
      'a table of strings',
      (v) => isTable(v) && Object.values(v).every((s) => typeof s === 'string'),
    ) as Record<string, string> | undefined;
  const wire = str('wire_api');
  if (wire !== undefined && !WIRES.has(wire as WireApi))
    throw new Error(`wire_api "${wire}" is not responses, chat or anthropic`);
  const baseUrl = str('base_url') ?? base?.baseUrl;
  if (!baseUrl) throw new Error('base_url is required');
  if (!/^https?:\/\//.test(baseUrl)) throw new Error(`base_url "${baseUrl}" is not an http(s) URL`);
  const clamp = (value: number | undefined, fallback: number, max: number) =>
    Math.min(value ?? fallback, max);
  return {
    id,
    name: str('name') ?? base?.name ?? id,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    wireApi: (wire as WireApi | undefined) ?? base?.wireApi ?? 'chat',
    envKey: str('env_key') ?? base?.envKey ?? null,
    httpHeaders: { ...base?.httpHeaders, ...strings('http_headers') },
    queryParams: { ...base?.queryParams, ...strings('query_params') },
    requestMaxRetries: clamp(
      count('request_max_retries'),
      base?.requestMaxRetries ?? DEFAULTS.requestMaxRetries,
      MAX_RETRIES,
    ),
    streamMaxRetries: clamp(
      count('stream_max_retries'),
      base?.streamMaxRetries ?? DEFAULTS.streamMaxRetries,
      MAX_RETRIES,
    ),
    streamIdleTimeoutMs: Math.max(
      100,
      clamp(
        count('stream_idle_timeout_ms'),
        base?.streamIdleTimeoutMs ?? DEFAULTS.streamIdleTimeoutMs,
        3_600_000,
      ),
    ),
    requiresOpenaiAuth:
      (optional(entry, 'requires_openai_auth', 'true or false', (v) => typeof v === 'boolean') as
        boolean | undefined) ??
      base?.requiresOpenaiAuth ??
      false,
    maxTokens:
      (optional(
        entry,
        'max_tokens',
        'a whole number ≥ 1',
        (v) => Number.isInteger(v) && (v as number) >= 1,
      ) as number | undefined) ??
      base?.maxTokens ??
      null,
  };
}

function optional(entry: Table, key: string, expected: string, check: (v: unknown) => boolean): unknown {
  const value = entry[key];
  if (value === undefined) return undefined;
  if (!check(value)) throw new Error(`${key} must be ${expected}`);
  return value;
}
