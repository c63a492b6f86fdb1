// Which API key a provider uses: its env_key variable when set (the extension passes keys from
// VS Code's SecretStorage that way), else the key stored with account/login/start.
import type { ProviderConfig } from '../providers/types';
import type { AuthStore } from './authStore';

export async function apiKeyFor(provider: ProviderConfig, store: AuthStore): Promise<string | null> {
  const fromEnv = provider.envKey ? process.env[provider.envKey] : undefined;
  if (fromEnv) return fromEnv;
  return store.apiKey(provider.id);
}

/** Whether requests to this provider need a key at all (local servers such as Ollama do not). */
export const needsApiKey = (provider: ProviderConfig) =>
  provider.envKey !== null || provider.requiresOpenaiAuth;

export function missingKeyMessage(provider: ProviderConfig): string {
  const env = provider.envKey ? `set ${provider.envKey}, or ` : '';
  return `No API key for ${provider.name}, so nothing was sent: ${env}add one with account/login/start (type apiKey).`;
}
