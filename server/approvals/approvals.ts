// Approvals: how a tool asks the user before it acts.
//
// A tool gets `context.approvals` (an ApprovalGate, server/agent/approvalGate.ts) and does:
//   1. decide whether it must ask at all: the thread's policy (`context.permissions`) and
//      `await approvals.commandAllowedForSession(line, unsandboxed)`, `approvals.commandRule(line)` / `approvals.filesAllowedForSession(paths)`,
//      which remember earlier acceptForSession answers (exact command lines, file roots) and the
//      user's rules (allowed prefixes, forbidden and prompt rules: server/approvals/execpolicyRules.ts);
//   2. emit `item/started` for its item (commandExecution / fileChange, status inProgress);
//   3. `await approvals.command({itemId, command, line, cwd, commandActions, reason})` or
//      `await approvals.fileChange({itemId, paths, reason, grantRoot})`. This sends
//      `item/commandExecution/requestApproval` / `item/fileChange/requestApproval` to every client
//      subscribed to the thread, shows `activeFlags: ["waitingOnApproval"]` meanwhile, takes the
//      first answer and emits `serverRequest/resolved`;
//   4. act on `decision.outcome`: `accept` → run/apply; `decline` → complete the item `declined`
//      and tell the model it was declined; `cancel` → the same, and the turn is already being
//      interrupted when the promise settles. `decision.unanswered` says nobody answered (the turn
//      was interrupted, or no client could be asked); the outcome is then `decline` or `cancel`.
//   5. complete the item. Session-wide yeses are remembered by the gate, not by the tool.
// Other server requests of a turn (request_user_input, dynamic tool calls) use `approvals.ask`.
import type { ActiveTurn } from '../agent/activeTurn';
import type {
  ApprovalDecision,
  ApprovalGate,
  CommandQuestion,
  FileChangeQuestion,
} from '../agent/approvalGate';
import type { Logger } from '../log';
import type { CommandExecutionApprovalDecision, ServerRequestParamsOf } from '../protocol/serverRequests';
import type { LoadedThreads } from '../threads/loadedThreads';
import { proposedPrefix } from './commandPrefixes';
import { readDecision } from './decisions';
import type { ExecpolicyRules } from './execpolicyRules';
import { ServerRequestBroker } from './serverRequestBroker';
import type { SessionGrants } from './sessionGrants';

/** What a command approval prompt may offer, in the order a client should show them. */
const COMMAND_DECISIONS: CommandExecutionApprovalDecision[] = [
  'accept',
  'acceptForSession',
  'decline',
  'cancel',
];

type ApprovalMethod = 'item/commandExecution/requestApproval' | 'item/fileChange/requestApproval';

export class Approvals {
  readonly broker: ServerRequestBroker;

  constructor(
    loaded: LoadedThreads,
    private readonly log: Logger,
    private readonly rules: ExecpolicyRules,
  ) {
    this.broker = new ServerRequestBroker(loaded, log);
  }

  /** The gate a turn's tools ask through; `grants` are the thread's session-wide yeses. */
  gateFor(
    turn: Pick<ActiveTurn, 'threadId' | 'turnId' | 'onInterrupt' | 'interrupt'>,
    grants: SessionGrants,
  ): ApprovalGate {
    const { threadId, turnId } = turn;
    const onInterrupt = (cleanup: () => void) => turn.onInterrupt(cleanup);
    const decide = async <M extends ApprovalMethod>(
      method: M,
      params: ServerRequestParamsOf<M>,
    ): Promise<ApprovalDecision> => {
      const answer = await this.broker.ask(threadId, method, params, 'waitingOnApproval', onInterrupt);
      if (!answer.answered) {
        if (answer.reason === 'error') this.log.warn(`${method} on ${threadId}: ${answer.message}`);
        const outcome = answer.reason === 'interrupted' ? 'cancel' : 'decline';
        const unanswered = answer.reason === 'interrupted' ? 'interrupted' : 'noClient';
        return { outcome, forSession: false, unanswered };
      }
      const kind = method === 'item/fileChange/requestApproval' ? 'fileChange' : 'command';
      const { decision, problem } = readDecision(answer.result, kind, answer.experimentalApi);
      if (problem) this.log.warn(`${method} on ${threadId}: ${problem}; taken as decline`);
      if (decision.outcome === 'cancel') turn.interrupt();
      return decision;
    };
    return {
      command: async (q: CommandQuestion) => {
        const amendment = q.offerAmendment ? proposedPrefix(q.line, await this.rules.prefixes()) : null;
        const decision = await decide('item/commandExecution/requestApproval', {
          threadId,
          turnId,
          itemId: q.itemId,
          startedAtMs: Date.now(),
          command: q.command,
          cwd: q.cwd,
          reason: q.reason ?? null,
          commandActions: q.commandActions,
          ...(amendment ? { proposedExecpolicyAmendment: amendment } : {}),
          availableDecisions: amendment
            ? [
                ...COMMAND_DECISIONS.slice(0, 2),
                { acceptWithExecpolicyAmendment: { execpolicy_amendment: amendment } },
                ...COMMAND_DECISIONS.slice(2),
              ]
            : COMMAND_DECISIONS,
        });
        if (decision.outcome === 'accept' && decision.forSession)
          grants.allowCommandLine(q.line, q.unsandboxed);
        if (decision.outcome === 'accept' && decision.execpolicyAmendment)
          await this.rules.add(decision.execpolicyAmendment);
        return decision;
      },
      fileChange: async (q: FileChangeQuestion) => {
        const decision = await decide('item/fileChange/requestApproval', {
          threadId,
          turnId,
          itemId: q.itemId,
          startedAtMs: Date.now(),
          reason: q.reason ?? null,
          grantRoot: q.grantRoot ?? null,
        });
        if (decision.outcome === 'accept' && decision.forSession) {
          for (const root of q.grantRoot ? [q.grantRoot] : q.paths) grants.allowRoot(root);
        }
        if (decision.edits) {
          // Only files of this change may be written: the user approved those paths, no others.
          const ignored = decision.edits.filter((edit) => !q.paths.includes(edit.path));
          for (const { path } of ignored) {
            this.log.warn(
              `item/fileChange/requestApproval on ${threadId}: acceptWithEdits names ${JSON.stringify(path).slice(0, 200)}, which the change does not write; ignored`,
            );
          }
          decision.edits = decision.edits.filter((edit) => q.paths.includes(edit.path));
        }
        return decision;
      },
      commandAllowedForSession: async (line, unsandboxed) =>
        grants.commandAllowed(line, await this.rules.prefixes(), unsandboxed),
      commandRule: (line) => this.rules.verdict(line),
      filesAllowedForSession: (paths) => grants.pathsAllowed(paths),
      ask: (method, params, flag) => this.broker.ask(threadId, method, params, flag, onInterrupt),
      interruptTurn: () => turn.interrupt(),
    };
  }
}
