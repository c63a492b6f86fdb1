// Sign in with an API key, sign out, and choose the provider and model. With our server a key goes into
// SecretStorage and reaches the server as its provider's env_key (the server restarts to see it); with
// another server (the reference one) it goes through account/login/start.
import * as vscode from 'vscode';
import type { ModelProviderSummary } from '../../server/protocol/modelMethods';
import type { ThreadlineServer } from '../server/threadlineServer';
import { readSettings, updateSetting } from '../settings/settings';
import { addProvider } from './addProvider';
import { isLocal, isRunning } from './localProviders';
import type { ProviderKeys } from './providerKeys';

type ProviderPick = vscode.QuickPickItem & { provider?: ModelProviderSummary };

const ADD_PROVIDER = '$(add) Add a Provider…';

/** The variable a provider reads its key from, or undefined when it takes none. */
export function providerEnvKey(provider: ModelProviderSummary): string | undefined {
  if (provider.settings.type === 'openai') return 'OPENAI_API_KEY';
  return provider.settings.auth.mode === 'environmentVariable' ? provider.settings.auth.envKey : undefined;
}

async function providers(server: ThreadlineServer): Promise<ModelProviderSummary[]> {
  return (await server.request('modelProvider/list', {})).data;
}

export function accountCommands(server: ThreadlineServer, keys: ProviderKeys): vscode.Disposable[] {
  const applyKeys = async () => server.setProviderKeys(await keys.env());
  const failed = (what: string) => (error: Error) => {
    server.log.error(`${what} failed: ${error.message}`);
    void vscode.window.showErrorMessage(`Threadline: ${what} failed: ${error.message}`);
  };

  /** `providerId` (the setup card's) skips the question which provider the key is for. */
  const signIn = async (providerId?: string) => {
    await server.start();
    if (!server.isThreadline) return signInThroughServer(server);
    const list = await providers(server);
    const named = list.find((p) => p.id === providerId);
    const picked = named
      ? { provider: named }
      : await vscode.window.showQuickPick<ProviderPick>(
          list.map((provider) => {
            const envKey = providerEnvKey(provider);
            return {
              label: provider.name,
              description: envKey
                ? `${envKey}${keys.providers().includes(provider.id) ? ' · signed in' : ''}`
                : 'no key needed',
              detail: provider.baseUrl ?? undefined,
              provider,
            };
          }),
          { title: 'Sign in with API Key', placeHolder: 'Which provider is the key for?' },
        );
    const provider = picked?.provider;
    if (!provider) return;
    const envKey = providerEnvKey(provider);
    if (!envKey) {
      void vscode.window.showInformationMessage(
        `${provider.name} takes no API key. To use one, give it an env_key in config.toml.`,
      );
      return;
    }
    const apiKey = await vscode.window.showInputBox({
      title: `API Key for ${provider.name}`,
      prompt: `Kept in VS Code's secret storage and given to the server as ${envKey}.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : 'Paste the key'),
    });
    if (!apiKey) return;
    await keys.set(provider.id, envKey, apiKey.trim());
    await applyKeys();
    void vscode.window.showInformationMessage(`Signed in to ${provider.name}.`);
  };

  const signOut = async () => {
    await server.start();
    if (!server.isThreadline) {
      await server.request('account/logout', {});
      void vscode.window.showInformationMessage('Signed out.');
      return;
    }
    const signedIn = keys.providers();
    if (signedIn.length === 0) {
      void vscode.window.showInformationMessage('No API key is stored.');
      return;
    }
    const picked = await vscode.window.showQuickPick(signedIn, {
      title: 'Sign Out',
      placeHolder: 'Forget the API key of…',
    });
    if (!picked) return;
    await keys.delete(picked);
    await applyKeys();
    void vscode.window.showInformationMessage(`Forgot the API key for ${picked}.`);
  };

  return [
    vscode.commands.registerCommand('threadline.signIn', (providerId?: unknown) =>
      signIn(typeof providerId === 'string' ? providerId : undefined).catch(failed('Sign in')),
    ),
    vscode.commands.registerCommand('threadline.signOut', () => signOut().catch(failed('Sign out'))),
    vscode.commands.registerCommand('threadline.chooseModel', (providerId?: unknown) =>
      chooseModel(server, typeof providerId === 'string' ? providerId : undefined).catch(
        failed('Choosing a model'),
      ),
    ),
  ];
}

async function signInThroughServer(server: ThreadlineServer): Promise<void> {
  const apiKey = await vscode.window.showInputBox({
    title: 'Sign in with API Key',
    prompt: 'Given to the configured server (account/login/start).',
    password: true,
    ignoreFocusOut: true,
  });
  if (!apiKey) return;
  await server.request('account/login/start', { type: 'apiKey', apiKey: apiKey.trim() });
  void vscode.window.showInformationMessage('Signed in.');
}

/** `providerId` (the setup card's "Use Ollama") skips straight to that provider's models. */
async function chooseModel(server: ThreadlineServer, providerId?: string): Promise<void> {
  const { data, defaultProviderId } = await server.request('modelProvider/list', {});
  const named = data.find((p) => p.id === providerId);
  const running = named
    ? []
    : await Promise.all(data.map((p) => (isLocal(p.baseUrl) ? isRunning(p.baseUrl!) : undefined)));
  const current = readSettings().modelProvider || defaultProviderId;
  const picked = named
    ? { provider: named }
    : await vscode.window.showQuickPick<ProviderPick>(
        [
          ...data.map((provider, i) => ({
            label: provider.name,
            description: [
              provider.id === current ? 'current' : '',
              running[i] === true ? 'running on this machine' : running[i] === false ? 'not running' : '',
            ]
              .filter(Boolean)
              .join(' · '),
            detail: provider.baseUrl ?? undefined,
            provider,
          })),
          { label: ADD_PROVIDER, description: 'written to config.toml' },
        ],
        { title: 'Choose Provider (1/2)', placeHolder: 'Which model provider?' },
      );
  // The one row without a provider is Add a Provider.
  const provider = picked && !picked.provider ? await addProvider(server) : picked?.provider;
  if (!provider) return;
  const models = await server
    .request('model/list', { modelProvider: provider.id })
    .then((r) => r.data.filter((m) => !m.hidden))
    .catch(() => []);
  const custom = '$(edit) Enter a model name…';
  const model = await vscode.window.showQuickPick<vscode.QuickPickItem>(
    [
      ...models.map((m) => ({
        label: m.displayName,
        description: m.model,
        detail: m.description || undefined,
      })),
      { label: custom },
    ],
    {
      title: named ? `Choose Model for ${provider.name}` : `Choose Model for ${provider.name} (2/2)`,
      placeHolder: 'Which model?',
      matchOnDescription: true,
    },
  );
  if (!model) return;
  const name =
    model.label === custom
      ? await vscode.window.showInputBox({ title: `Model for ${provider.name}`, prompt: 'The model id' })
      : model.description;
  if (!name) return;
  await updateSetting('modelProvider', provider.id);
  await updateSetting('model', name);
}
