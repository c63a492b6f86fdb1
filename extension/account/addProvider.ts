// "Add a Provider…" in Choose Provider: asks a name, a base URL and the name of the environment
// variable holding its key, and has the server write them into config.toml (modelProvider/config/write,
// comments kept). The key itself is never asked here: Sign in with API Key keeps it in SecretStorage.
import * as vscode from 'vscode';
import type { ModelProviderSummary } from '../../server/protocol/modelMethods';
import type { ThreadlineServer } from '../server/threadlineServer';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export async function addProvider(server: ThreadlineServer): Promise<ModelProviderSummary | undefined> {
  const title = 'Add a Provider';
  const ask = (step: string, options: vscode.InputBoxOptions) =>
    vscode.window.showInputBox({ title: `${title}: ${step}`, ignoreFocusOut: true, ...options });
  const name = await ask('Name', {
    prompt: 'What the pickers call it',
    validateInput: (v) => (v.trim() ? undefined : 'Give it a name'),
  });
  if (!name) return undefined;
  const baseUrl = await ask('Base URL', {
    prompt: 'Its OpenAI-compatible API root, such as http://localhost:8000/v1',
    validateInput: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? undefined : 'An http(s) URL'),
  });
  if (!baseUrl) return undefined;
  const envKey = await ask('Key Variable', {
    prompt: 'The environment variable holding its API key (empty: it takes none). Not the key itself.',
    validateInput: (v) =>
      !v.trim() || ENV_NAME.test(v.trim()) ? undefined : 'A variable name: letters, digits, _',
  });
  if (envKey === undefined) return undefined;
  const { provider } = await server.request('modelProvider/config/write', {
    settings: {
      type: 'customGateway',
      name: name.trim(),
      baseUrl: baseUrl.trim(),
      ...(envKey.trim() ? { envKey: envKey.trim() } : {}),
    },
  });
  void vscode.window.showInformationMessage(`Added ${provider.name} (${provider.id}) to config.toml.`);
  return provider;
}
