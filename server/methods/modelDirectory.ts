// The model ids each provider serves, from its models endpoint, kept for a few minutes so a picker
// that opens often does not query it every time. When the endpoint cannot answer (no key, server
// down, an endpoint the provider lacks) we offer the models we know for that provider instead, and
// ask again sooner.
import { createHash } from 'node:crypto';
import { needsApiKey } from '../account/credentials';
import { fallbackModels } from '../config/modelCatalog';
import type { Logger } from '../log';
import type { ProviderConfig } from '../providers/types';

const LISTED_TTL_MS = 5 * 60_000;
const FALLBACK_TTL_MS = 30_000;
const REQUEST_TIMEOUT_MS = 15_000;

interface Entry {
  ids: Promise<string[]>;
  expiresAt: number;
}

export class ModelDirectory {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The provider's model ids, in the endpoint's order, without duplicates. */
  ids(provider: ProviderConfig, apiKey: string | null): Promise<string[]> {
    // A new key (login, logout) may change what the endpoint answers, so it is part of the key;
    // hashed, so the cache never holds it in a readable form.
    const key = `${provider.id}\n${apiKey ? createHash('sha256').update(apiKey).digest('hex') : ''}`;
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.ids;
    // In-flight lookups are shared; the entry's lifetime is set once we know how it went.
    const entry: Entry = { ids: Promise.resolve([]), expiresAt: Infinity };
    entry.ids = this.query(provider, apiKey).then(({ ids, listed }) => {
      entry.expiresAt = this.now() + (listed ? LISTED_TTL_MS : FALLBACK_TTL_MS);
      return ids;
    });
    this.entries.set(key, entry);
    return entry.ids;
  }

  private async query(
    provider: ProviderConfig,
    apiKey: string | null,
  ): Promise<{ ids: string[]; listed: boolean }> {
    const fallback = (why: string) => {
      this.log.warn(`model/list: ${why}; offering the models Threadline knows for ${provider.id}`);
      return { ids: [...fallbackModels(provider.id)], listed: false };
    };
    if (!apiKey && needsApiKey(provider)) return fallback(`no API key for ${provider.id}`);
    try {
      // Loaded here, not at startup: the providers bundle carries the SDKs.
      const { createModelClient } = await import('../providers/index');
      const client = createModelClient(provider, apiKey);
      const ids = await client.listModels(AbortSignal.timeout(REQUEST_TIMEOUT_MS));
      this.log.debug(`model/list: ${provider.id} lists ${ids.length} models`);
      return { ids: [...new Set(ids)], listed: true };
    } catch (error) {
      // Provider errors are classified with credentials redacted, so the message is safe to log.
      return fallback(`${provider.id}'s models endpoint failed (${(error as Error).message})`);
    }
  }
}
