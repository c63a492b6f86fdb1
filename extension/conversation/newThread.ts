// The view with no thread open: what it shows (this workspace's recent threads, the pickers' starting
// values) and how its first send becomes a thread of this workspace with its first turn.
import * as vscode from 'vscode';
import { approvalPolicies, sandboxModes } from '../../server/protocol/enums';
import type { UserInput } from '../../server/protocol/userInput';
import type { StartInfo } from '../../webview/messages';
import type { ThreadlineServer } from '../server/threadlineServer';
import type { turnOverrides } from '../settings/overrides';
import { threadOverrides } from '../settings/overrides';
import { forbiddenChoices } from '../settings/requirements';
import { permissionProfileChoices } from '../settings/permissionProfiles';
import { readSettings } from '../settings/settings';
import { threadTitle } from '../../webview/common/threadTitle';
import { listedSources } from '../threads/treeNodes';
import { workspaceFolders } from '../threads/threadsView';

const recentCount = 5;

export async function startInfo(server: ThreadlineServer): Promise<StartInfo> {
  const settings = readSettings();
  const cwd = workspaceFolders();
  const config = await serverPolicy(server, cwd?.[0]);
  const { data } = await server.request('thread/list', {
    limit: recentCount,
    sortKey: 'updated_at',
    sourceKinds: listedSources,
    ...(cwd ? { cwd } : {}),
  });
  return {
    workspace: vscode.workspace.name,
    recent: data.map((t) => ({ id: t.id, label: threadTitle(t), updatedAt: t.updatedAt })),
    defaults: {
      model: settings.model,
      effort: settings.reasoningEffort || null,
      // Unset in the editor: what the server's config says, so the picker shows the real value.
      approvalPolicy: settings.approvalPolicy || config.approvalPolicy,
      sandbox: settings.sandboxMode || config.sandbox,
      forbidden: config.forbidden,
      profiles: config.profiles,
    },
  };
}

/** The effective policy and mode of config/read, what configRequirements/read forbids, the profiles. */
async function serverPolicy(server: ThreadlineServer, cwd: string | undefined) {
  const read = await server.request('config/read', cwd ? { cwd } : {}).catch(() => null);
  const approval = read?.config.approval_policy;
  return {
    approvalPolicy: approvalPolicies.find((policy) => policy === approval) ?? ('' as const),
    sandbox: sandboxModes.find((mode) => mode === read?.config.sandbox_mode) ?? ('' as const),
    forbidden: await forbiddenChoices(server),
    profiles: await permissionProfileChoices(server),
  };
}

/** thread/start in the first workspace folder with the editor's settings, then its first turn. */
export async function startThread(
  server: ThreadlineServer,
  input: UserInput[],
  turnSettings: ReturnType<typeof turnOverrides> & {
    collaborationMode?: { mode: 'plan' | 'default'; settings: { model: string } };
  },
): Promise<string> {
  const folder = workspaceFolders()?.[0];
  const { thread, model } = await server.request('thread/start', {
    ...threadOverrides(readSettings()),
    ...(folder ? { cwd: folder } : {}),
  });
  // A mode runs with a model: the composer may not know which one the new thread got.
  const mode = turnSettings.collaborationMode;
  if (mode && !mode.settings.model) mode.settings.model = model;
  await server.request('turn/start', { threadId: thread.id, input, ...turnSettings });
  return thread.id;
}
