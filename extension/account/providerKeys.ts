// API keys, one per provider, kept only in VS Code's SecretStorage. The server sees a key as its
// provider's env_key variable in the child's environment, never in a file or a message.
import type * as vscode from 'vscode';

interface StoredKey {
  envKey: string;
  apiKey: string;
}

const secretName = (providerId: string) => `threadline.apiKey.${providerId}`;
/** Which providers have a key: SecretStorage cannot list its entries. */
const indexKey = 'threadline.signedInProviders';

export class ProviderKeys {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  providers(): string[] {
    return this.state.get<string[]>(indexKey, []);
  }

  /** Every stored key as `{ENV_KEY: key}`, ready for the child's environment. */
  async env(): Promise<Record<string, string>> {
    const env: Record<string, string> = {};
    for (const id of this.providers()) {
      const stored = await this.read(id);
      if (stored) env[stored.envKey] = stored.apiKey;
    }
    return env;
  }

  async set(providerId: string, envKey: string, apiKey: string): Promise<void> {
    await this.secrets.store(secretName(providerId), JSON.stringify({ envKey, apiKey } satisfies StoredKey));
    if (!this.providers().includes(providerId))
      await this.state.update(indexKey, [...this.providers(), providerId]);
  }

  async delete(providerId: string): Promise<void> {
    await this.secrets.delete(secretName(providerId));
    await this.state.update(
      indexKey,
      this.providers().filter((id) => id !== providerId),
    );
  }

  private async read(providerId: string): Promise<StoredKey | undefined> {
    const raw = await this.secrets.get(secretName(providerId));
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<StoredKey>;
      return typeof parsed.envKey === 'string' && typeof parsed.apiKey === 'string'
        ? { envKey: parsed.envKey, apiKey: parsed.apiKey }
        : undefined;
    } catch {
      return undefined;
    }
  }
}
