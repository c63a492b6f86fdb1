// What a prompt card offers and how it words it: the buttons of a command or file-change approval
// (from `availableDecisions` when the server sends it, else the four every server takes), what a
// command will do, and how a settled prompt ended. Pure, so it is tested without a page.
import type { CommandAction } from '../../server/protocol/commandExecution';
import type {
  CommandExecutionApprovalDecision,
  CommandExecutionRequestApprovalParams,
  FileChangeApprovalDecision,
} from '../../server/protocol/serverRequests';
import type { PromptKind, PromptOutcome } from '../messages';

export type Shortcut = 'Enter' | 'S' | 'A' | 'D' | 'Escape' | 'C';

export interface Choice<D> {
  decision: D;
  label: string;
  /** The key that picks it while the card has the focus (shown on the button). */
  shortcut?: Shortcut;
  /** The one filled button; the rest are secondary. */
  primary: boolean;
}

const basic = ['accept', 'acceptForSession', 'decline', 'cancel'] as const;

export function commandChoices(
  params: CommandExecutionRequestApprovalParams,
): Choice<CommandExecutionApprovalDecision>[] {
  const offered: CommandExecutionApprovalDecision[] = params.availableDecisions ?? [
    'accept',
    ...(params.proposedExecpolicyAmendment?.length
      ? [{ acceptWithExecpolicyAmendment: { execpolicy_amendment: params.proposedExecpolicyAmendment } }]
      : []),
    'acceptForSession',
    'decline',
    'cancel',
  ];
  const network = !!params.networkApprovalContext;
  const choices = offered.map((decision) => commandChoice(decision, network));
  return withShortcuts(
    choices.filter((c): c is Omit<Choice<CommandExecutionApprovalDecision>, 'shortcut'> => !!c),
  );
}

export function fileChoices(): Choice<FileChangeApprovalDecision>[] {
  const labels = {
    accept: 'Accept',
    acceptForSession: 'Accept for session',
    decline: 'Decline',
    cancel: 'Cancel turn',
  };
  return withShortcuts(
    basic.map((decision) => ({ decision, label: labels[decision], primary: decision === 'accept' })),
  );
}

function commandChoice(
  decision: CommandExecutionApprovalDecision,
  network: boolean,
): Omit<Choice<CommandExecutionApprovalDecision>, 'shortcut'> | undefined {
  if (typeof decision === 'string') {
    const labels = network
      ? {
          accept: 'Allow',
          acceptForSession: 'Allow for this session',
          decline: 'Deny',
          cancel: 'Cancel turn',
        }
      : {
          accept: 'Run',
          acceptForSession: 'Run for this session',
          decline: 'Decline',
          cancel: 'Cancel turn',
        };
    return labels[decision]
      ? { decision, label: labels[decision], primary: decision === 'accept' }
      : undefined;
  }
  if ('acceptWithExecpolicyAmendment' in decision) {
    const prefix = decision.acceptWithExecpolicyAmendment.execpolicy_amendment.join(' ');
    return { decision, label: `Always allow commands starting with \`${prefix}\``, primary: false };
  }
  if ('applyNetworkPolicyAmendment' in decision) {
    const { host, action } = decision.applyNetworkPolicyAmendment.network_policy_amendment;
    return {
      decision,
      label: `${action === 'allow' ? 'Always allow' : 'Always deny'} ${host}`,
      primary: false,
    };
  }
  return undefined; // a decision this build does not know: not offered rather than sent wrong
}

/** Enter runs the primary choice, Escape declines; the others get a letter each, first come first. */
function withShortcuts<D>(choices: Omit<Choice<D>, 'shortcut'>[]): Choice<D>[] {
  const taken = new Set<Shortcut>();
  return choices.map((choice) => {
    const want = shortcutFor(choice.decision, choice.primary);
    const shortcut = want && !taken.has(want) ? want : undefined;
    if (shortcut) taken.add(shortcut);
    return { ...choice, shortcut };
  });
}

function shortcutFor(decision: unknown, primary: boolean): Shortcut | undefined {
  if (primary) return 'Enter';
  if (decision === 'acceptForSession') return 'S';
  if (decision === 'decline') return 'Escape';
  if (decision === 'cancel') return 'C';
  if (typeof decision === 'object' && decision && 'acceptWithExecpolicyAmendment' in decision) return 'A';
  if (typeof decision === 'object' && decision && 'applyNetworkPolicyAmendment' in decision) {
    const amendment = (
      decision as { applyNetworkPolicyAmendment: { network_policy_amendment: { action: string } } }
    ).applyNetworkPolicyAmendment.network_policy_amendment;
    return amendment.action === 'allow' ? 'A' : 'D';
  }
  return undefined;
}

/** "Allow network access to https://example.com?" — the host and protocol the command wants. */
export function networkTarget(context: { host: string; protocol: string }): string {
  const scheme: Record<string, string> = { http: 'http://', https: 'https://' };
  return scheme[context.protocol]
    ? `${scheme[context.protocol]}${context.host}`
    : `${context.host} (${context.protocol})`;
}

/** What a command will do, in words, for the actions the server recognized (reads, listings, searches). */
export function describeActions(actions: CommandAction[] | null | undefined): string[] {
  return (actions ?? []).flatMap((action) => {
    switch (action.type) {
      case 'read':
        return [`Read ${action.path || action.name}`];
      case 'listFiles':
        return [`List files in ${action.path || 'the working folder'}`];
      case 'search':
        return [
          `Search${action.query ? ` for “${action.query}”` : ''} in ${action.path || 'the working folder'}`,
        ];
      default:
        return [];
    }
  });
}

/**
 * "Accepted", "Declined", "Answered elsewhere", "Cancelled (turn interrupted)"… A prompt the server
 * resolved because its turn was interrupted is told apart by the turn's status.
 */
export function outcomeLabel(kind: PromptKind, outcome: PromptOutcome, turnStatus?: string): string {
  if ('resolvedElsewhere' in outcome)
    return turnStatus === 'interrupted' ? 'Cancelled (turn interrupted)' : 'Answered elsewhere';
  if ('cancelled' in outcome) return `Cancelled (${outcome.cancelled})`;
  const answer = outcome.answered as { decision?: unknown; answers?: unknown } | null;
  if (kind === 'userInput' || answer?.answers) return 'Answered';
  const decision = answer?.decision;
  if (typeof decision === 'string') return decisionLabels[decision]?.(kind) ?? 'Answered';
  if (typeof decision !== 'object' || !decision) return 'Answered';
  if ('acceptWithExecpolicyAmendment' in decision) return 'Accepted, and always allowed from now on';
  if ('acceptWithEdits' in decision) return 'Accepted with your edits';
  if ('applyNetworkPolicyAmendment' in decision) {
    const { action } = (
      decision as { applyNetworkPolicyAmendment: { network_policy_amendment: { action: string } } }
    ).applyNetworkPolicyAmendment.network_policy_amendment;
    return action === 'allow' ? 'Allowed from now on' : 'Denied from now on';
  }
  return 'Answered';
}

const decisionLabels: Record<string, (kind: PromptKind) => string> = {
  accept: (kind) => (kind === 'commandExecution' ? 'Accepted: running' : 'Accepted'),
  acceptForSession: () => 'Accepted for this session',
  decline: () => 'Declined',
  cancel: () => 'Declined, turn cancelled',
};
