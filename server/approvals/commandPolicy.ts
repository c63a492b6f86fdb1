// Whether a command may run as it is, must be approved first, or may not run at all, and whether it
// runs inside the sandbox: the approval policy, the sandbox policy and what the machine offers.
import type { AskForApproval, SandboxPolicy } from '../protocol/enums';
import type { RuleVerdict } from './execpolicyRules';

export interface CommandCircumstances {
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
  /** A sandbox works on this machine. */
  sandboxAvailable: boolean;
  /** The model asked to run outside the sandbox (`sandbox_permissions: "require_escalated"`). */
  escalated: boolean;
  /** On the known-safe read-only list. */
  knownSafe: boolean;
  /**
   * It runs git, which reads the repository's own config, and that config can name programs
   * (core.fsmonitor, diff and filter drivers) that even a read-only subcommand runs.
   */
  readsRepositoryConfig: boolean;
  /**
   * An earlier acceptForSession or the allow rules cover it (for an escalated run: cover it to run
   * outside the sandbox).
   */
  allowedForSession: boolean;
  /** A forbidden or prompt rule matches it. */
  rule: RuleVerdict | null;
  /** Plan mode: only a known-safe read may run, confined read-only where a sandbox exists. */
  planning?: boolean;
}

export type CommandPlan =
  | { kind: 'run'; sandboxed: boolean }
  | { kind: 'ask'; reason: string; sandboxedOnceApproved: boolean }
  | { kind: 'refuse'; message: string };

export const wantsSandbox = (policy: SandboxPolicy) =>
  policy.type === 'readOnly' || policy.type === 'workspaceWrite';

export function planCommand(c: CommandCircumstances): CommandPlan {
  const confine = wantsSandbox(c.sandboxPolicy);
  const canConfine = confine && c.sandboxAvailable;
  if (c.rule?.decision === 'forbidden')
    return { kind: 'refuse', message: `This command is forbidden by the user's rules: ${c.rule.reason}.` };
  // Before any approval: in plan mode no answer of the user's makes a writing command a read.
  if (c.planning && (!c.knownSafe || c.escalated)) return { kind: 'refuse', message: PLANNING_REFUSAL };
  if (c.rule?.decision === 'prompt') {
    if (c.approvalPolicy === 'never') {
      return {
        kind: 'refuse',
        message: `The user's rules say to ask before this command (${c.rule.reason}), and the approval policy is "never": it may not run.`,
      };
    }
    return {
      kind: 'ask',
      reason: `The user's rules say to ask before this command: ${c.rule.reason}.`,
      sandboxedOnceApproved: canConfine && !c.escalated,
    };
  }
  if (c.planning) return planReadOnly(c);
  if (c.approvalPolicy === 'never') {
    if (c.escalated) {
      return {
        kind: 'refuse',
        message:
          'Running outside the sandbox needs approval, and the approval policy is "never": run the command within the sandbox instead.',
      };
    }
    if (confine && !c.sandboxAvailable) {
      return {
        kind: 'refuse',
        message:
          'No sandbox is available on this machine and the approval policy is "never", so commands cannot be approved: none may run.',
      };
    }
    return { kind: 'run', sandboxed: canConfine };
  }
  // Session grants and allowed prefixes were given for commands the sandbox would hold: where there
  // is none, each command is asked about again.
  if (c.escalated && !c.allowedForSession)
    return {
      kind: 'ask',
      reason: 'The model asks to run this command outside the sandbox.',
      sandboxedOnceApproved: false,
    };
  if (confine && !c.sandboxAvailable) {
    return {
      kind: 'ask',
      reason: 'No sandbox is available on this machine: the command would run unconfined.',
      sandboxedOnceApproved: false,
    };
  }
  if (c.allowedForSession) return { kind: 'run', sandboxed: canConfine && !c.escalated };
  if (c.approvalPolicy === 'untrusted' && !c.knownSafe) {
    return {
      kind: 'ask',
      reason: 'The command is not on the list of known-safe commands.',
      sandboxedOnceApproved: canConfine,
    };
  }
  // Known safe means it only reads, which holds for git only inside the sandbox: on the host, a hostile
  // repository's config would run its programs with the user's full rights.
  if (c.approvalPolicy === 'untrusted' && !canConfine && c.readsRepositoryConfig) {
    return {
      kind: 'ask',
      reason:
        "git runs programs the repository's own config names (core.fsmonitor, diff and filter drivers), and nothing confines this command.",
      sandboxedOnceApproved: false,
    };
  }
  return { kind: 'run', sandboxed: canConfine };
}

const PLANNING_REFUSAL =
  'This is plan mode: only commands known to only read (ls, cat, grep, rg, git status, …) may run, and this is not one of them. Nothing may change until the user accepts the plan: put the command in your <proposed_plan> instead.';

/**
 * A known-safe read in plan mode: it runs, in the read-only sandbox where there is one. git reads the
 * repository's config, which can name programs: unconfined it runs only if the user says so.
 */
function planReadOnly(c: CommandCircumstances): CommandPlan {
  if (!c.readsRepositoryConfig || c.sandboxAvailable) return { kind: 'run', sandboxed: c.sandboxAvailable };
  if (c.approvalPolicy === 'never')
    return {
      kind: 'refuse',
      message:
        'git runs programs the repository\'s own config names, no sandbox is available to confine it, and the approval policy is "never": in plan mode it may not run.',
    };
  return {
    kind: 'ask',
    reason:
      "git runs programs the repository's own config names (core.fsmonitor, diff and filter drivers), and nothing confines this command.",
    sandboxedOnceApproved: false,
  };
}
