// Starts a command confined by a sandbox policy (or unconfined), with the environment commands
// get, and streams its output as text.
import { StringDecoder } from 'node:string_decoder';
import type { SandboxPolicy } from '../protocol/enums';
import type { NameReport } from '../sandbox/nameGuard';
import { releaseSandbox, wrapCommand, type Availability, type Wrapped } from '../sandbox/sandbox';
import { commandEnv, type ShellEnvironmentPolicy } from './commandEnv';
import { RunningProcess } from './processRunner';

export interface StartOptions {
  argv: string[];
  /** Hand the arguments to a Windows program as written (cmd.exe's line: shellSelection.ts). */
  windowsVerbatimArguments?: boolean;
  /** Where the command runs. */
  cwd: string;
  /** The cwd the policy's writable roots are relative to (the thread's); defaults to `cwd`. */
  policyCwd?: string;
  /** The policy to confine it by; null runs it unconfined. */
  policy: SandboxPolicy | null;
  availability: Availability;
  environment: ShellEnvironmentPolicy;
  outputCapBytes: number;
  timeoutMs?: number | null;
  env?: Record<string, string | null>;
  onText?: (text: string, stream: 'stdout' | 'stderr') => void;
}

export interface Started {
  process: RunningProcess;
  wrapped: Wrapped;
  /** Settles once the command has ended and its sandbox is cleaned up: what it was made to undo. */
  released: Promise<NameReport>;
}

export async function startCommand(options: StartOptions): Promise<Started> {
  const env = commandEnv(process.env, options.environment, options.cwd, options.env);
  const wrapped: Wrapped = options.policy
    ? await wrapCommand(
        options.argv,
        options.policy,
        options.policyCwd ?? options.cwd,
        env,
        options.availability,
        options.cwd,
      )
    : { argv: options.argv, sandbox: null, unavailable: null, fd3: null, env, privateTmp: null, names: null };
  const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  const { onText } = options;
  const running = new RunningProcess({
    argv: wrapped.argv,
    windowsVerbatimArguments: options.windowsVerbatimArguments,
    fd3: wrapped.fd3,
    cwd: options.cwd,
    env: wrapped.env,
    timeoutMs: options.timeoutMs,
    outputCapBytes: options.outputCapBytes,
    onOutput: onText
      ? (chunk, stream) => {
          const text = decoders[stream].write(chunk);
          if (text) onText(text, stream);
        }
      : undefined,
  });
  const released = running.exited.then(() => releaseSandbox(wrapped));
  return { process: running, wrapped, released };
}
