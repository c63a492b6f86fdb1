// The approval policies and sandbox modes requirements.toml forbids, each with the reason the
// composer's pickers show beside it, greyed out. The same for a new thread and an open one: the
// admin's requirements hold for every thread. No `vscode` import.
import { approvalPolicies, sandboxModes } from '../../server/protocol/enums';
import type { ClientMethod, ParamsOf, ResultOf } from '../../server/protocol/methods';

interface RequirementsServer {
  request<M extends ClientMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
}

export async function forbiddenChoices(server: RequirementsServer): Promise<Record<string, string>> {
  const { requirements } = await server
    .request('configRequirements/read', {})
    .catch(() => ({ requirements: null }));
  const forbidden: Record<string, string> = {};
  const allowedApprovals = requirements?.allowedApprovalPolicies;
  for (const id of approvalPolicies) {
    if (allowedApprovals && !allowedApprovals.includes(id))
      forbidden[id] = `Not allowed by requirements.toml (allowed: ${allowedApprovals.join(', ')})`;
  }
  const allowedSandboxes = requirements?.allowedSandboxModes;
  for (const id of sandboxModes) {
    if (allowedSandboxes && !allowedSandboxes.includes(id))
      forbidden[id] = `Not allowed by requirements.toml (allowed: ${allowedSandboxes.join(', ')})`;
  }
  return forbidden;
}
