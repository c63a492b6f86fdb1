// The view with no thread open: what it shows (this workspace's recent threads, the pickers' starting
// values) and how its first send becomes a thread of this workspace with its first turn.
import type { UserInput } from '../../server/protocol/userInput';
import type { StartInfo } from '../../webview/messages';
import type { ThreadlineServer } from '../server/threadlineServer';
import type { turnOverrides } from '../settings/overrides';
import { threadOverrides } from '../settings/overrides';
import { readSettings } from '../settings/settings';
import { threadLabel } from '../threads/threadLabels';
import { listedSources } from '../threads/threadTreeModel';
import { workspaceFolders } from '../threads/threadsView';

const recentCount = 5;

export async function startInfo(server: ThreadlineServer): Promise<StartInfo> {
  const settings = readSettings();
  const cwd = workspaceFolders();
  const { data } = await server.request('thread/list', {
    limit: recentCount,
    sortKey: 'updated_at',
    sourceKinds: listedSources,
    ...(cwd ? { cwd } : {}),
  });
  return {
    recent: data.map((t) => ({ id: t.id, label: threadLabel(t), updatedAt: t.updatedAt })),
    defaults: {
      model: settings.model,
      effort: settings.reasoningEffort || null,
      approvalPolicy: settings.approvalPolicy,
      sandbox: settings.sandboxMode,
    },
  };
}

/** thread/start in the first workspace folder with the editor's settings, then its first turn. */
export async function startThread(
  server: ThreadlineServer,
  input: UserInput[],
  turnSettings: ReturnType<typeof turnOverrides>,
): Promise<string> {
  const folder = workspaceFolders()?.[0];
  const { thread } = await server.request('thread/start', {
    ...threadOverrides(readSettings()),
    ...(folder ? { cwd: folder } : {}),
  });
  await server.request('turn/start', { threadId: thread.id, input, ...turnSettings });
  return thread.id;
}
