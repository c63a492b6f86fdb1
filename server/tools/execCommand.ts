// exec_command: the model runs a shell command line. The approval policy and the sandbox decide
// whether it runs, asks first, or is refused (server/approvals/commandPolicy.ts); it runs confined
// by the thread's sandbox policy unless approved to run outside it; a command still running after
// yield_time_ms becomes a session that write_stdin polls and feeds.
import { resolve } from 'node:path';
import type { ApprovalDecision } from '../agent/approvalGate';
import { parseArguments, ToolInputError, type AgentTool, type ToolContext } from '../agent/tool';
import { planCommand, wantsSandbox } from '../approvals/commandPolicy';
import { isKnownSafe, runsGit } from '../approvals/safeCommands';
import { commandActions } from '../exec/commandActions';
import { parseCommandLine } from '../exec/commandLine';
import type { ShellEnvironmentPolicy } from '../exec/commandEnv';
import type { CommandSessions, Session } from '../exec/commandSessions';
import type { Exit, RunningProcess } from '../exec/processRunner';
import { shellCommand, type CommandShell } from '../exec/shellSelection';
import { startCommand } from '../exec/startCommand';
import { protectedNameHint, type NameReport } from '../sandbox/nameGuard';
import { quarantineNotice, SCAN_LIMIT } from '../sandbox/newProtectedNames';
import { sandboxAvailability, type Availability } from '../sandbox/sandbox';
import { workdirProblem } from '../sandbox/workdir';
import { CommandItem } from './commandItem';
import { boundedInteger, DEFAULT_MAX_OUTPUT_TOKENS, reportForModel } from './execOutput';

const ITEM_OUTPUT_CAP_BYTES = 1024 * 1024;
/** A session nobody cleans up still ends. */
const SESSION_TIMEOUT_MS = 60 * 60 * 1000;
export const MIN_YIELD_MS = 250;
const MAX_YIELD_MS = 30_000;
const DEFAULT_YIELD_MS = 10_000;

/** Waits for the process to end, the yield time to pass, or the turn to be interrupted. */
export async function waitForExit(
  running: RunningProcess,
  yieldMs: number,
  signal: AbortSignal,
): Promise<Exit | null> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const yielded = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), yieldMs);
    onAbort = () => {
      running.kill();
      resolve(null);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const outcome = await Promise.race([running.exited, yielded]);
  clearTimeout(timer);
  signal.removeEventListener('abort', onAbort!);
  // An interrupted command is killed; report it once it is really gone.
  return outcome ?? (signal.aborted ? running.exited : null);
}

function refusal(decision: ApprovalDecision): string {
  if (decision.unanswered === 'noClient') return 'No client could approve this command, so it did not run.';
  if (decision.unanswered === 'interrupted')
    return 'The turn was interrupted before the command was approved.';
  if (decision.outcome === 'cancel') return 'The user declined to run this command and stopped the turn.';
  return 'The user declined to run this command.';
}

export function execCommandTool(
  sessions: CommandSessions,
  environment: ShellEnvironmentPolicy,
  shell: CommandShell,
): AgentTool {
  return {
    spec: {
      kind: 'function',
      name: 'exec_command',
      description:
        'Runs a shell command line and returns its output. A command still running after yield_time_ms keeps running in a session; poll or feed it with write_stdin.',
      parameters: {
        type: 'object',
        properties: {
          cmd: { type: 'string', description: 'The shell command line to run.' },
          workdir: {
            type: 'string',
            description:
              'Working directory, inside the workspace (the thread cwd or a writable root); defaults to the thread cwd.',
          },
          yield_time_ms: { type: 'number', description: 'How long to wait for output before returning.' },
          max_output_tokens: { type: 'number', description: 'Most output tokens to return.' },
          tty: { type: 'boolean', description: 'Ask for a terminal (not available: runs over pipes).' },
          justification: { type: 'string', description: 'Why the command needs to run outside the sandbox.' },
          sandbox_permissions: {
            type: 'string',
            enum: ['use_default', 'require_escalated'],
            description: 'require_escalated asks the user to run the command outside the sandbox.',
          },
        },
        required: ['cmd'],
      },
    },
    run: (call, context) => runExec(parseArguments(call), context, sessions, { environment, shell }),
  };
}

async function runExec(
  args: Record<string, unknown>,
  context: ToolContext,
  sessions: CommandSessions,
  runner: Runner,
) {
  const cmd = args.cmd;
  if (typeof cmd !== 'string' || cmd.trim() === '')
    throw new ToolInputError('exec_command needs `cmd`, a non-empty string');
  const cwd = resolve(context.cwd, typeof args.workdir === 'string' ? args.workdir : '.');
  const yieldMs = boundedInteger(args.yield_time_ms, DEFAULT_YIELD_MS, MIN_YIELD_MS, MAX_YIELD_MS);
  const maxTokens = boundedInteger(args.max_output_tokens, DEFAULT_MAX_OUTPUT_TOKENS, 1, 1_000_000);
  const escalated = args.sandbox_permissions === 'require_escalated';
  const justification = typeof args.justification === 'string' ? args.justification : null;
  // Read in the grammar of the shell that will run it: a PowerShell line is not a bash line.
  const line = await parseCommandLine(cmd, runner.shell.grammar);
  const actions = commandActions(line, cmd);
  const availability = await sandboxAvailability();
  const { permissions, approvals } = context;
  const plan = planCommand({
    approvalPolicy: permissions.approvalPolicy,
    sandboxPolicy: permissions.sandboxPolicy,
    sandboxAvailable: availability.kind !== 'none',
    escalated,
    knownSafe: isKnownSafe(line),
    readsRepositoryConfig: runsGit(line),
    allowedForSession: await approvals.commandAllowedForSession(line, escalated),
    rule: await approvals.commandRule(line),
    planning: permissions.planning,
  });
  const confined = plan.kind === 'run' ? plan.sandboxed : plan.kind === 'ask' && plan.sandboxedOnceApproved;
  if (confined) {
    const problem = await workdirProblem(cwd, permissions.sandboxPolicy, context.cwd, process.env);
    if (problem) throw new ToolInputError(`exec_command refused: ${problem}`);
  }
  const item = new CommandItem(context.emit, { command: cmd, cwd, commandActions: actions, source: 'agent' });
  item.start();
  if (plan.kind === 'refuse') {
    await item.complete({ status: 'declined', aggregatedOutput: plan.message });
    return { output: plan.message, isError: true };
  }
  const ask = (reason: string, unsandboxed: boolean, offerAmendment = false) =>
    approvals.command({
      itemId: item.id,
      command: cmd,
      line,
      unsandboxed,
      cwd,
      commandActions: actions,
      reason,
      offerAmendment,
    });
  const sandboxed = plan.kind === 'run' ? plan.sandboxed : plan.sandboxedOnceApproved;
  if (plan.kind === 'ask') {
    const decision = await ask(justification ?? plan.reason, !sandboxed, true);
    if (decision.outcome !== 'accept') {
      const message = refusal(decision);
      await item.complete({ status: 'declined', aggregatedOutput: message });
      return { output: message, isError: true };
    }
  }
  const notes: string[] = [];
  if (args.tty === true)
    notes.push('no terminal (PTY) is available here; the command ran with pipes instead.');
  // The item says so too, where the user looks.
  const missing =
    availability.kind === 'none' && plan.kind === 'ask' && !sandboxed ? availability.reason : null;
  // Run outside the sandbox without asking now: an earlier yes for the session, or the user's rules.
  const unconfinedByGrant =
    plan.kind === 'run' &&
    escalated &&
    !sandboxed &&
    availability.kind !== 'none' &&
    wantsSandbox(permissions.sandboxPolicy);
  const banner = missing
    ? `[no sandbox available (${missing}): the command runs unconfined]\n`
    : unconfinedByGrant
      ? '[runs outside the sandbox, as approved earlier for this session or by your rules]\n'
      : '';
  if (banner) item.delta(banner);
  if (unconfinedByGrant)
    notes.push('the command ran outside the sandbox (approved earlier for this session or by a rule).');
  let attempt = await attemptRun(cmd, cwd, sandboxed, availability, runner, context, item, yieldMs);
  const attempts = [attempt];
  if (
    sandboxed &&
    permissions.retryUnsandboxedOnFailure &&
    attempt.exit &&
    attempt.exit.exitCode !== 0 &&
    !context.signal.aborted
  ) {
    const decision = await ask(
      `The command failed in the sandbox (exit code ${attempt.exit.exitCode}). Run it again outside the sandbox?`,
      true,
    );
    if (decision.outcome === 'accept') {
      notes.push(
        `the command failed in the sandbox (exit code ${attempt.exit.exitCode}) and ran again outside it.`,
      );
      attempt = await attemptRun(cmd, cwd, false, availability, runner, context, item, yieldMs);
      attempts.push(attempt);
    }
  }
  if (missing) notes.push(`no sandbox is available (${missing}); the command ran unconfined after approval.`);
  const { running, exit } = attempt;
  if (context.signal.aborted) notes.push('the turn was interrupted; the command was killed.');
  let session: Session | null = null;
  if (!exit) {
    session = sessions.add(context.threadId, cmd, cwd, running);
    attempt.handOver(session);
  }
  const output = running.output.text();
  const hint = attempt.sandboxed && exit && exit.exitCode !== 0 ? protectedNameHint(output) : null;
  if (hint) notes.push(hint);
  const moved = exit ? await movedAside(attempts, notes) : '';
  if (moved) item.delta(moved);
  await item.complete({
    status: exit ? (exit.exitCode === 0 ? 'completed' : 'failed') : 'completed',
    exitCode: exit?.exitCode ?? null,
    durationMs: exit?.durationMs ?? Date.now() - running.startedAt,
    aggregatedOutput: banner + (exit?.spawnError ?? output) + moved,
    processId: session ? String(session.id) : null,
  });
  // A command that goes on in a session is looked at when it ends; the poll that sees the end reads
  // what was moved.
  const polled = session;
  if (polled)
    polled.settled = attempt.released.then(({ quarantined }) => {
      if (quarantined.length) polled.unread.push(Buffer.from(`\n${quarantineNotice(quarantined)}\n`));
    });
  return {
    output: reportForModel({
      notes: exit?.spawnError ? [...notes, `the command could not start: ${exit.spawnError}`] : notes,
      wallMs: exit?.durationMs ?? Date.now() - running.startedAt,
      exitCode: exit?.exitCode ?? null,
      sessionId: session?.id ?? null,
      output,
      maxOutputTokens: maxTokens,
    }),
    isError: exit ? exit.exitCode !== 0 : false,
  };
}

/** How commands start: their environment, and the shell that runs them. */
interface Runner {
  environment: ShellEnvironmentPolicy;
  shell: CommandShell;
}

/** What the sandbox moved aside after the attempts that ended, for the item; the model's note too. */
async function movedAside(attempts: Attempt[], notes: string[]): Promise<string> {
  const reports = await Promise.all(attempts.map((attempt) => attempt.released));
  const quarantined = reports.flatMap((report) => report.quarantined);
  const notices = quarantined.length ? [quarantineNotice(quarantined)] : [];
  if (reports.some((report) => !report.complete))
    notices.push(
      `[the writable roots hold more than ${SCAN_LIMIT} folders: not all were checked for new repositories]`,
    );
  notes.push(...notices);
  return notices.map((notice) => `\n${notice}\n`).join('');
}

interface Attempt {
  running: RunningProcess;
  exit: Exit | null;
  sandboxed: boolean;
  /** Settles once the command has ended: what its sandbox moved aside. */
  released: Promise<NameReport>;
  /** From now on the output goes to the session, not the (completed) item. */
  handOver(session: Session): void;
}

async function attemptRun(
  cmd: string,
  cwd: string,
  sandboxed: boolean,
  availability: Availability,
  { environment, shell }: Runner,
  context: ToolContext,
  item: CommandItem,
  yieldMs: number,
): Promise<Attempt> {
  let session: Session | null = null;
  const recordChanges = await context.checkpoint.beforeCommand(
    cwd,
    sandboxed ? context.permissions.sandboxPolicy : null,
  );
  const { process: running, released } = await startCommand({
    ...shellCommand(shell, cmd),
    cwd,
    policyCwd: context.cwd,
    policy: sandboxed ? context.permissions.sandboxPolicy : null,
    availability,
    environment,
    outputCapBytes: ITEM_OUTPUT_CAP_BYTES,
    timeoutMs: SESSION_TIMEOUT_MS,
    onText: (text) => (session ? session.unread.push(Buffer.from(text)) : item.delta(text)),
  });
  const exit = await waitForExit(running, yieldMs, context.signal);
  // A command left running in a session may change more later: the note says so.
  await recordChanges(exit ? `\`${cmd}\`` : `\`${cmd}\` (still running when its changes were taken)`);
  return { running, exit, sandboxed, released, handOver: (s) => (session = s) };
}
