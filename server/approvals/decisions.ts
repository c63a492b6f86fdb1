// Reads a client's answer to an approval request. Accepts the schema's decision shapes, the older
// `{decision: "accept", acceptSettings: {forSession}}` form, the v1 review words and, from a client
// that opted into experimentalApi, our `acceptWithEdits`; anything else is a decline, so a confused
// client can never approve by accident.
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { ApprovalDecision } from '../agent/approvalGate';
import { serverRequestSchemas } from '../protocol/lazySchemas';
import type { AcceptWithEditsDecision } from '../protocol/serverRequests';

export interface ReadDecision {
  decision: ApprovalDecision;
  /** Why the answer could not be read (it was taken as a decline). */
  problem?: string;
}

const WORDS: Record<string, Pick<ApprovalDecision, 'outcome' | 'forSession'>> = {
  accept: { outcome: 'accept', forSession: false },
  acceptForSession: { outcome: 'accept', forSession: true },
  decline: { outcome: 'decline', forSession: false },
  cancel: { outcome: 'cancel', forSession: false },
  // The v1 protocol's ReviewDecision spellings.
  approved: { outcome: 'accept', forSession: false },
  approved_for_session: { outcome: 'accept', forSession: true },
  denied: { outcome: 'decline', forSession: false },
  abort: { outcome: 'cancel', forSession: false },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const declined = (problem: string): ReadDecision => ({
  decision: { outcome: 'decline', forSession: false },
  problem,
});

/**
 * Reads an approval answer; only command approvals may carry the amendment objects, only file-change
 * approvals from an experimentalApi client the edits.
 */
export function readDecision(
  result: unknown,
  kind: 'command' | 'fileChange',
  experimentalApi = false,
): ReadDecision {
  if (!isObject(result)) return declined('the answer is not an object');
  const { decision } = result;
  if (typeof decision === 'string') {
    const word = WORDS[decision];
    if (!word) return declined(`unknown decision ${JSON.stringify(decision).slice(0, 60)}`);
    const settings = result.acceptSettings;
    const forSession = word.forSession || (isObject(settings) && settings.forSession === true);
    return { decision: { ...word, forSession: word.outcome === 'accept' && forSession } };
  }
  if (kind === 'command' && isObject(decision)) return readAmendment(decision);
  if (kind === 'fileChange' && isObject(decision)) return readEdits(decision, experimentalApi);
  return declined('the answer has no decision');
}

// Compiled on first use, so starting the server compiles nothing.
let checkEdits: TypeCheck<typeof AcceptWithEditsDecision> | undefined;

function readEdits(decision: Record<string, unknown>, experimentalApi: boolean): ReadDecision {
  if (!('acceptWithEdits' in decision)) return declined('unknown decision object');
  if (!experimentalApi) {
    return declined('acceptWithEdits is experimental and this client did not opt into experimentalApi');
  }
  checkEdits ??= TypeCompiler.Compile(serverRequestSchemas().AcceptWithEditsDecision);
  if (!checkEdits.Check(decision)) {
    return declined('acceptWithEdits needs {files: [{path, content}]} with string paths and contents');
  }
  const { files, forSession = false } = decision.acceptWithEdits;
  return { decision: { outcome: 'accept', forSession, edits: files } };
}

function readAmendment(decision: Record<string, unknown>): ReadDecision {
  const exec = decision.acceptWithExecpolicyAmendment;
  if (isObject(exec)) {
    const prefix = exec.execpolicy_amendment;
    if (Array.isArray(prefix) && prefix.length > 0 && prefix.every((word) => typeof word === 'string')) {
      return { decision: { outcome: 'accept', forSession: false, execpolicyAmendment: prefix } };
    }
    return declined('acceptWithExecpolicyAmendment needs a non-empty execpolicy_amendment of strings');
  }
  const network = decision.applyNetworkPolicyAmendment;
  if (isObject(network) && isObject(network.network_policy_amendment)) {
    const { host, action } = network.network_policy_amendment;
    if (typeof host === 'string' && (action === 'allow' || action === 'deny')) {
      return {
        decision: {
          outcome: action === 'allow' ? 'accept' : 'decline',
          forSession: false,
          networkPolicyAmendment: { host, action },
        },
      };
    }
    return declined('applyNetworkPolicyAmendment needs {host, action: "allow"|"deny"}');
  }
  return declined('unknown decision object');
}
