// What the user's settings add to requests. A setting left empty is left out, so the server falls back to
// the user's config.toml. Pure: the editor layer reads the values and passes them in.
import { policyTypeOfMode, type ApprovalPolicy, type SandboxMode } from '../../server/protocol/enums';
import type { ParamsOf } from '../../server/protocol/methods';

export interface ThreadlineSettings {
  modelProvider: string;
  model: string;
  reasoningEffort: string;
  approvalPolicy: '' | ApprovalPolicy;
  sandboxMode: '' | SandboxMode;
}

type ThreadParams = Pick<ParamsOf<'thread/start'>, 'model' | 'modelProvider' | 'approvalPolicy' | 'sandbox'>;
type TurnParams = Pick<ParamsOf<'turn/start'>, 'model' | 'effort' | 'approvalPolicy' | 'sandboxPolicy'>;

/**
 * A window whose workspace the user has not trusted (Restricted Mode): the agent may read, and asks
 * before anything that is not known to be safe, whatever the settings or the composer say, since a
 * cloned repository's files (and a prompt injected through them) are the attacker here.
 */
export function withinTrust(settings: ThreadlineSettings, trusted: boolean): ThreadlineSettings {
  return trusted ? settings : { ...settings, approvalPolicy: 'untrusted', sandboxMode: 'read-only' };
}

/** For thread/start, thread/resume and thread/fork. */
export function threadOverrides(settings: ThreadlineSettings): ThreadParams {
  const overrides: ThreadParams = {};
  if (settings.modelProvider) overrides.modelProvider = settings.modelProvider;
  if (settings.model) overrides.model = settings.model;
  if (settings.approvalPolicy) overrides.approvalPolicy = settings.approvalPolicy;
  if (settings.sandboxMode) overrides.sandbox = settings.sandboxMode;
  return overrides;
}

/** For turn/start: settings changed since the thread started apply to its next turn. */
export function turnOverrides(settings: ThreadlineSettings): TurnParams {
  const overrides: TurnParams = {};
  if (settings.model) overrides.model = settings.model;
  if (settings.reasoningEffort) overrides.effort = settings.reasoningEffort;
  if (settings.approvalPolicy) overrides.approvalPolicy = settings.approvalPolicy;
  if (settings.sandboxMode) overrides.sandboxPolicy = { type: policyTypeOfMode[settings.sandboxMode] };
  return overrides;
}
