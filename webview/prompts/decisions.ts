// What a prompt card offers: the answers a command, file-change or MCP tool approval allows (a
// command's from `availableDecisions` when the server sends it, else the four every server takes), each
// looked up in the one answer table (answers.ts) for its label and key; what a command will do; and how
// a settled prompt ended. Pure, so it is tested without a page.
import type { CommandAction } from '../../server/protocol/commandExecution';
import { allowRuleLine } from '../../server/protocol/execpolicyRule';
import {
  CODEX_MCP_TOOL_APPROVAL_PREFIX,
  MCP_TOOL_APPROVAL_QUESTION,
} from '../../server/protocol/mcpApproval';
import type {
  CommandExecutionApprovalDecision,
  CommandExecutionRequestApprovalParams,
  FileChangeApprovalDecision,
} from '../../server/protocol/serverRequests';
import type { ToolRequestUserInputQuestion } from '../../server/protocol/toolCallItems';
import type { PromptKind, PromptOutcome } from '../messages';
import { answerKindOf, answerLooks, answerOrder, type AnswerKind, type Shortcut } from './answers';

export type { Shortcut } from './answers';

export interface Choice<D> {
  decision: D;
  kind: AnswerKind;
  label: string;
  /** What it does, as the button's tooltip. */
  hint: string;
  /** The key that picks it while the card has the focus (shown on the button). */
  shortcut?: Shortcut;
  /** The one filled button; the rest are secondary. */
  primary: boolean;
  /** What an "always" answer stores, exactly: shown in a code block under `caption`. */
  rule?: { caption: string; text: string };
}

export function commandChoices(
  params: CommandExecutionRequestApprovalParams,
): Choice<CommandExecutionApprovalDecision>[] {
  const offered: CommandExecutionApprovalDecision[] = params.availableDecisions ?? [
    'accept',
    'acceptForSession',
    ...(params.proposedExecpolicyAmendment?.length
      ? [{ acceptWithExecpolicyAmendment: { execpolicy_amendment: params.proposedExecpolicyAmendment } }]
      : []),
    'decline',
    'cancel',
  ];
  return choicesOf(offered, answerKindOf, ruleOf);
}

export function fileChoices(): Choice<FileChangeApprovalDecision>[] {
  return choicesOf(['accept', 'acceptForSession', 'decline', 'cancel'] as const, answerKindOf);
}

/**
 * The labels an MCP tool approval question offers, by answer: ours (server/tools/mcpTools.ts) and
 * codex's. A label outside this list means a question this build does not know.
 */
const mcpLabels: Record<string, AnswerKind> = {
  Accept: 'accept',
  Allow: 'accept',
  'Approve Once': 'accept',
  'Allow for this session': 'acceptForSession',
  'Approve this Session': 'acceptForSession',
  "Allow and don't ask me again": 'always',
  Decline: 'decline',
  Deny: 'decline',
  Cancel: 'cancel',
};

/**
 * An MCP tool approval as an approval card: the question's options as answers (the option's label is
 * what is sent). Null when it is not one, or offers an option this build cannot name: then it shows as
 * the question it is, every option in sight.
 */
export function mcpChoices(questions: ToolRequestUserInputQuestion[]): Choice<string>[] | null {
  const [question] = questions;
  if (questions.length !== 1 || !question || !isMcpApproval(question.id)) return null;
  const options = question.options ?? [];
  if (options.length === 0 || options.some((o) => !Object.hasOwn(mcpLabels, o.label))) return null;
  return choicesOf(
    options.map((o) => o.label),
    (label) => mcpLabels[label],
  );
}

function isMcpApproval(id: string): boolean {
  return id === MCP_TOOL_APPROVAL_QUESTION || id.startsWith(CODEX_MCP_TOOL_APPROVAL_PREFIX);
}

/**
 * The offered decisions this build can name, in the table's order, each with its look; the first of a
 * kind gets the kind's key. A decision of an unknown kind is not offered rather than sent wrong.
 */
function choicesOf<D>(
  offered: readonly D[],
  kindOf: (d: D) => AnswerKind | undefined,
  rule: (d: D) => Choice<D>['rule'] = () => undefined,
): Choice<D>[] {
  const taken = new Set<Shortcut>();
  return offered
    .flatMap((decision) => {
      const kind = kindOf(decision);
      return kind ? [{ decision, kind }] : [];
    })
    .sort((a, b) => answerOrder.indexOf(a.kind) - answerOrder.indexOf(b.kind))
    .map(({ decision, kind }) => {
      const look = answerLooks[kind];
      const shortcut = taken.has(look.shortcut) ? undefined : look.shortcut;
      if (shortcut) taken.add(shortcut);
      const stored = rule(decision);
      return {
        decision,
        kind,
        label: look.label,
        hint: look.hint,
        shortcut,
        primary: kind === 'accept',
        ...(stored ? { rule: stored } : {}),
      };
    });
}

function ruleOf(decision: CommandExecutionApprovalDecision): Choice<unknown>['rule'] {
  if (typeof decision !== 'object') return undefined;
  if ('acceptWithExecpolicyAmendment' in decision) {
    const prefix = decision.acceptWithExecpolicyAmendment.execpolicy_amendment;
    return { caption: 'Always allow stores this rule:', text: allowRuleLine(prefix) };
  }
  const { host, action } = decision.applyNetworkPolicyAmendment.network_policy_amendment;
  return {
    caption: `Always ${action} network access to:`,
    text: host,
  };
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
  const mcp = mcpAnswerKind(answer?.answers);
  if (mcp) return decisionLabels[mcp]?.('mcp') ?? 'Answered';
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

/** The answer kind of an MCP tool approval's answers, when that is what they answer. */
function mcpAnswerKind(answers: unknown): AnswerKind | undefined {
  if (typeof answers !== 'object' || answers === null) return undefined;
  const entries = Object.entries(answers as Record<string, { answers?: unknown }>);
  if (entries.length !== 1 || !isMcpApproval(entries[0]![0])) return undefined;
  const [label] = Array.isArray(entries[0]![1]?.answers) ? (entries[0]![1].answers as unknown[]) : [];
  return typeof label === 'string' && Object.hasOwn(mcpLabels, label) ? mcpLabels[label] : undefined;
}

const decisionLabels: Record<string, (kind: PromptKind | 'mcp') => string> = {
  accept: (kind) =>
    kind === 'commandExecution' ? 'Accepted: running' : kind === 'mcp' ? 'Accepted: calling' : 'Accepted',
  always: () => 'Accepted, and always allowed from now on',
  acceptForSession: () => 'Accepted for this session',
  decline: () => 'Declined',
  cancel: () => 'Declined, turn cancelled',
};
