// The named permission profiles (permissionProfile/list) the composer's policy picker offers. The
// stable protocol applies a profile as its approval policy and sandbox (thread/start, turn/start), so
// only the profiles whose pair is known are offered: the reference's built-in ids, which this server
// serves too. A server without the method offers none. No `vscode` import.
import { permissionPresets } from '../../server/config/permissionProfiles';
import type { ClientMethod, ParamsOf, ResultOf } from '../../server/protocol/methods';
import type { PermissionProfileChoice } from '../../webview/messages';

interface ProfilesServer {
  request<M extends ClientMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
}

export async function permissionProfileChoices(server: ProfilesServer): Promise<PermissionProfileChoice[]> {
  const { data } = await server.request('permissionProfile/list', {}).catch(() => ({ data: [] }));
  return data.flatMap((profile) => {
    const preset = permissionPresets.find((p) => p.id === profile.id);
    if (!preset) return [];
    return [
      {
        id: profile.id,
        // "Read only: the agent reads…" reads as "Read only" in the picker.
        label: preset.summary.split(':')[0]!,
        description: profile.description ?? preset.summary,
        approvalPolicy: preset.approvalPolicy,
        sandbox: preset.sandboxMode,
        allowed: profile.allowed,
      },
    ];
  });
}
