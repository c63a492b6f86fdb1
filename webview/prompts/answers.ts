// The one table of approval answers: what each is called and the key that gives it, the same on a
// command card, a file-change card, an MCP tool card, in the diff editor's bar and in notifications.
// Which of them a request gets is the request's to say (decisions.ts); this says how they look. Pure, so
// the webview and the extension both import it.

export type Shortcut = 'Enter' | 'S' | 'A' | 'D' | 'Escape' | 'C';

/** The kinds of answer, in the order they are shown. */
export type AnswerKind = 'accept' | 'acceptForSession' | 'always' | 'alwaysDeny' | 'decline' | 'cancel';

export interface AnswerLook {
  label: string;
  shortcut: Shortcut;
  /** What the answer does, for a tooltip. */
  hint: string;
}

export const answerLooks: Record<AnswerKind, AnswerLook> = {
  accept: { label: 'Accept', shortcut: 'Enter', hint: 'Allow this once' },
  acceptForSession: {
    label: 'Accept for session',
    shortcut: 'S',
    hint: 'Allow this, and the same again for the rest of this session',
  },
  always: { label: 'Always allow', shortcut: 'A', hint: 'Allow it now and store the rule below' },
  alwaysDeny: { label: 'Always deny', shortcut: 'D', hint: 'Refuse it now and from now on' },
  decline: { label: 'Decline', shortcut: 'Escape', hint: 'Do not do it; the agent is told and goes on' },
  cancel: { label: 'Cancel turn', shortcut: 'C', hint: 'Do not do it and stop the turn' },
};

export const answerOrder = Object.keys(answerLooks) as AnswerKind[];

const keyNames: Record<Shortcut, string> = { Enter: 'Enter', Escape: 'Esc', S: 'S', A: 'A', D: 'D', C: 'C' };

/** A key as text ("Esc", "S"). */
export function keyName(shortcut: Shortcut): string {
  return keyNames[shortcut];
}

/** The kind of a decision of the protocol's (a command's or a file change's); undefined when unknown. */
export function answerKindOf(decision: unknown): AnswerKind | undefined {
  if (typeof decision === 'string')
    return (['accept', 'acceptForSession', 'decline', 'cancel'] as const).find((k) => k === decision);
  if (typeof decision !== 'object' || decision === null) return undefined;
  if ('acceptWithExecpolicyAmendment' in decision) return 'always';
  if ('applyNetworkPolicyAmendment' in decision) {
    const { action } = (
      decision as { applyNetworkPolicyAmendment: { network_policy_amendment: { action: string } } }
    ).applyNetworkPolicyAmendment.network_policy_amendment;
    return action === 'allow' ? 'always' : 'alwaysDeny';
  }
  return undefined;
}
