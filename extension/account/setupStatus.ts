// Whether the selected provider can take a turn right now, asked before anything is sent: a provider
// that needs a key must have one, a server on this machine must answer. When it cannot, the answer
// names the local servers that do answer, so the setup card can offer them.
import * as vscode from 'vscode';
import type { ModelProviderSummary } from '../../server/protocol/modelMethods';
import type { SetupAction, SetupStatus } from '../../webview/messages';
import type { ThreadlineServer } from '../server/threadlineServer';
import { readSettings } from '../settings/settings';
import { setWalkthroughKey } from '../walkthrough/walkthroughProgress';
import { isLocal, isRunning } from './localProviders';

export async function setupStatus(server: ThreadlineServer): Promise<SetupStatus> {
  const status = await check(server);
  setWalkthroughKey('providerReady', status.ready);
  // A usable provider is a chosen one, whether the settings or config.toml chose it.
  if (status.ready) setWalkthroughKey('providerChosen', true);
  return status;
}

/** A setup card's button: the sign-in or provider commands, then the status they left behind. */
export async function runSetup(server: ThreadlineServer, setup: SetupAction): Promise<SetupStatus> {
  if (setup.action === 'signIn') await vscode.commands.executeCommand('threadline.signIn', setup.providerId);
  else if (setup.action === 'useLocal')
    await vscode.commands.executeCommand('threadline.chooseModel', setup.providerId);
  else await vscode.commands.executeCommand('threadline.chooseModel');
  return setupStatus(server);
}

async function check(server: ThreadlineServer): Promise<SetupStatus> {
  await server.start();
  const { data, defaultProviderId } = await server.request('modelProvider/list', {});
  const id = readSettings().modelProvider || defaultProviderId;
  const provider = data.find((p) => p.id === id);
  // An unknown provider fails the turn with the server's own clear error; nothing to set up here.
  if (!provider) return { ready: true };
  const problem = await problemOf(server, provider);
  if (!problem) return { ready: true };
  const local = await runningLocal(data.filter((p) => p.id !== provider.id));
  return { ready: false, provider: { id: provider.id, name: provider.name }, problem, local };
}

async function problemOf(
  server: ThreadlineServer,
  provider: ModelProviderSummary,
): Promise<'noKey' | 'notRunning' | undefined> {
  // Another app-server knows only its default account; ours answers for the named provider.
  const { account, requiresOpenaiAuth } = await server.request(
    'account/read',
    server.isThreadline ? { modelProvider: provider.id } : {},
  );
  if (requiresOpenaiAuth && !account) return 'noKey';
  if (isLocal(provider.baseUrl) && !(await isRunning(provider.baseUrl!))) return 'notRunning';
  return undefined;
}

async function runningLocal(providers: ModelProviderSummary[]): Promise<{ id: string; name: string }[]> {
  const local = providers.filter((p) => isLocal(p.baseUrl));
  const running = await Promise.all(local.map((p) => isRunning(p.baseUrl!)));
  return local.filter((_, i) => running[i]).map((p) => ({ id: p.id, name: p.name }));
}
