// What a tool may ask the user while its turn runs, and the answers it gets. The agent loop only
// passes the gate to tools (ToolContext.approvals); server/approvals implements it with server
// requests to the thread's clients, so tools stay free of JSON-RPC.
import type { RuleVerdict } from '../approvals/execpolicyRules';
import type { CommandLine } from '../exec/commandLine';
import type { CommandAction } from '../protocol/commandExecution';
import type { ThreadActiveFlag } from '../protocol/thread';
import type {
  EditedFile,
  NetworkPolicyAmendment,
  ServerRequestMethod,
  ServerRequestParamsOf,
} from '../protocol/serverRequests';
import type { Static } from '@sinclair/typebox';

export interface CommandQuestion {
  /** The commandExecution item the request is about; it must have been started already. */
  itemId: string;
  command: string;
  /** The command line as read, for remembering a session-wide yes. */
  line: CommandLine;
  /** The question is whether to run it outside the sandbox (a session-wide yes then allows that too). */
  unsandboxed: boolean;
  cwd: string;
  commandActions: CommandAction[];
  reason?: string | null;
  /**
   * Offer to allow a prefix of the line for good (an execpolicy amendment); the gate picks the
   * prefix. Not for a question that is not about the command itself (a retry outside the sandbox).
   */
  offerAmendment?: boolean;
}

export interface FileChangeQuestion {
  /** The fileChange item the request is about; the changes travel in the item, not the request. */
  itemId: string;
  /** Absolute paths the change writes (moves included). */
  paths: string[];
  reason?: string | null;
  /** A root the change asks to write under; a session-wide yes then covers all of it. */
  grantRoot?: string | null;
}

export type ApprovalOutcome = 'accept' | 'decline' | 'cancel';

export interface ApprovalDecision {
  outcome: ApprovalOutcome;
  /** Yes for the rest of the thread; the gate has already remembered it. */
  forSession: boolean;
  execpolicyAmendment?: string[];
  networkPolicyAmendment?: NetworkPolicyAmendment;
  /**
   * A file change accepted with the user's own content for these files (paths among the
   * question's `paths`) instead of the proposed one.
   */
  edits?: EditedFile[];
  /** Set when nobody answered: the turn was interrupted, or no client could be asked. */
  unanswered?: 'interrupted' | 'noClient';
}

/** An answer to a generic server request (user input, dynamic tool calls). */
export type ClientAnswer =
  | {
      answered: true;
      result: unknown;
      /** The answering client opted into experimentalApi (it may use experimental answers). */
      experimentalApi: boolean;
    }
  | { answered: false; reason: 'interrupted' | 'noClient' | 'error'; message: string };

/** What the thread status shows while the request waits. */
export type WaitingFlag = Static<typeof ThreadActiveFlag>;

export interface ApprovalGate {
  /** Asks whether a command may run. `cancel` has already interrupted the turn when it returns. */
  command(question: CommandQuestion): Promise<ApprovalDecision>;
  /** Asks whether a file change may be applied. `cancel` has already interrupted the turn. */
  fileChange(question: FileChangeQuestion): Promise<ApprovalDecision>;
  /**
   * Whether an earlier acceptForSession, or the allow rules (execpolicy amendments), cover this line;
   * `unsandboxed`: to run outside the sandbox.
   */
  commandAllowedForSession(line: CommandLine, unsandboxed: boolean): Promise<boolean>;
  /** A forbidden or prompt rule of the user's that matches the line. */
  commandRule(line: CommandLine): Promise<RuleVerdict | null>;
  /** Whether an earlier acceptForSession covers every one of these paths. */
  filesAllowedForSession(paths: string[]): boolean;
  /**
   * Any other server request of this turn. The thread shows `flag` while it waits; null for a
   * request that waits on the client rather than on the person (a dynamic tool call).
   */
  ask<M extends ServerRequestMethod>(
    method: M,
    params: ServerRequestParamsOf<M>,
    flag: WaitingFlag | null,
  ): Promise<ClientAnswer>;
  /** Ends the turn as the user asked in an answer to `ask` (a Cancel option). */
  interruptTurn(): void;
}
