// Runs a command line under the sandbox its policy asks for: bubblewrap on Linux, sandbox-exec on
// macOS. Whether the sandbox works here is probed once; where it does not, commands are marked
// unsandboxed and the approval policy then asks before each one.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SandboxPolicy } from '../protocol/enums';
import { bubblewrapArgs } from './bubblewrap';
import { seatbeltArgs } from './seatbelt';
import { confinementOf } from './writableRoots';

export type SandboxKind = 'bubblewrap' | 'seatbelt';

export type Availability = { kind: SandboxKind; program: string } | { kind: 'none'; reason: string };

export interface Wrapped {
  argv: string[];
  /** The sandbox the command runs in; null when it runs unconfined. */
  sandbox: SandboxKind | null;
  /** Set when the policy wanted confinement that this machine cannot give. */
  unavailable: string | null;
}

const SEATBELT = '/usr/bin/sandbox-exec';

function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

let probed: Promise<Availability> | undefined;

/** Whether commands can be confined here (THREADLINE_BWRAP names the bwrap binary to use). */
export function sandboxAvailability(env: NodeJS.ProcessEnv = process.env): Promise<Availability> {
  probed ??= probe(env);
  return probed;
}

async function probe(env: NodeJS.ProcessEnv): Promise<Availability> {
  if (process.platform === 'darwin') {
    return existsSync(SEATBELT)
      ? { kind: 'seatbelt', program: SEATBELT }
      : { kind: 'none', reason: `${SEATBELT} is missing` };
  }
  if (process.platform !== 'linux') return { kind: 'none', reason: `no sandbox on ${process.platform}` };
  const program = env.THREADLINE_BWRAP || findOnPath('bwrap', env);
  if (!program || !existsSync(program)) {
    return { kind: 'none', reason: 'bubblewrap (bwrap) is not installed' };
  }
  // bwrap needs user or mount namespaces; a container may forbid them.
  const trial = bubblewrapArgs({ writableRoots: [], hidden: [], network: false, privateTmp: true }, [
    '/bin/true',
  ]);
  return new Promise((resolve) =>
    execFile(program, trial, { timeout: 5000 }, (error, _stdout, stderr) =>
      resolve(
        error
          ? {
              kind: 'none',
              reason: `bwrap cannot create a sandbox here: ${String(stderr).trim() || error.message}`,
            }
          : { kind: 'bubblewrap', program },
      ),
    ),
  );
}

/**
 * The argv that runs `argv` under `policy`, given what this machine offers. The writable roots
 * come from `policyCwd` (the thread's cwd), not from the folder the command runs in.
 */
export async function wrapCommand(
  argv: string[],
  policy: SandboxPolicy,
  policyCwd: string,
  env: NodeJS.ProcessEnv,
  availability: Availability,
): Promise<Wrapped> {
  const confinement = await confinementOf(policy, policyCwd, env);
  // Full access, or a sandbox someone else already provides: nothing to confine.
  if (confinement.writableRoots === null) return { argv, sandbox: null, unavailable: null };
  if (availability.kind === 'none') return { argv, sandbox: null, unavailable: availability.reason };
  const args =
    availability.kind === 'bubblewrap' ? bubblewrapArgs(confinement, argv) : seatbeltArgs(confinement, argv);
  return { argv: [availability.program, ...args], sandbox: availability.kind, unavailable: null };
}
