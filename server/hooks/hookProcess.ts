// Runs one hook's command as any other command runs: through the shell commands use, with their
// environment allowlist, confined by the thread's sandbox policy, killed with everything it started
// when its timeout passes or the turn is interrupted. Its input arrives as JSON on stdin; what it
// prints is kept within a bound. Where the policy wants a sandbox this machine cannot give, the hook
// does not run: there is nobody to ask, so it fails closed.
import type { ShellEnvironmentPolicy } from '../exec/commandEnv';
import { shellCommand, type CommandShell } from '../exec/shellSelection';
import { startCommand } from '../exec/startCommand';
import { StreamCapture } from '../exec/streamCapture';
import type { SandboxPolicy } from '../protocol/enums';
import { sandboxAvailability } from '../sandbox/sandbox';

/** Bytes of stdout and of stderr a hook's answer is read from; more is cut off. */
export const HOOK_OUTPUT_CAP_BYTES = 64 * 1024;

export interface HookCommand {
  command: string;
  cwd: string;
  policy: SandboxPolicy;
  environment: ShellEnvironmentPolicy;
  shell: CommandShell;
  timeoutMs: number;
  input: unknown;
  signal: AbortSignal;
}

export type HookProcessResult =
  | { ran: true; exitCode: number; timedOut: boolean; stdout: string; stderr: string; durationMs: number }
  | { ran: false; reason: string };

export async function runHookCommand(hook: HookCommand): Promise<HookProcessResult> {
  const availability = await sandboxAvailability();
  const unconfined = hook.policy.type === 'dangerFullAccess' || hook.policy.type === 'externalSandbox';
  if (!unconfined && availability.kind === 'none')
    return { ran: false, reason: `no sandbox available (${availability.reason}), so it did not run` };
  if (hook.signal.aborted) return { ran: false, reason: 'the turn was interrupted before it ran' };
  const out = {
    stdout: new StreamCapture(HOOK_OUTPUT_CAP_BYTES, true),
    stderr: new StreamCapture(HOOK_OUTPUT_CAP_BYTES, true),
  };
  let started;
  try {
    started = await startCommand({
      ...shellCommand(hook.shell, hook.command),
      cwd: hook.cwd,
      policy: hook.policy,
      availability,
      environment: hook.environment,
      outputCapBytes: HOOK_OUTPUT_CAP_BYTES,
      timeoutMs: hook.timeoutMs,
      onText: (text, stream) => void out[stream].take(Buffer.from(text)),
    });
  } catch (error) {
    return { ran: false, reason: `it could not start (${(error as Error).message})` };
  }
  const { process: running, released } = started;
  const abort = () => running.kill();
  hook.signal.addEventListener('abort', abort, { once: true });
  running.write(`${JSON.stringify(hook.input)}\n`);
  running.closeStdin();
  const exit = await running.exited;
  hook.signal.removeEventListener('abort', abort);
  await released.catch(() => undefined);
  if (exit.spawnError) return { ran: false, reason: `it could not start (${exit.spawnError})` };
  return {
    ran: true,
    exitCode: exit.exitCode,
    timedOut: exit.timedOut,
    stdout: capped(out.stdout),
    stderr: capped(out.stderr),
    durationMs: exit.durationMs,
  };
}

/** What a stream kept, with a note when it printed more (a hook's JSON cut off no longer parses). */
const capped = (capture: StreamCapture) => capture.text() + (capture.reached ? '\n[output cut off]' : '');
