// Runs a command line under the sandbox its policy asks for: bubblewrap on Linux, sandbox-exec on
// macOS. Whether the sandbox works here is probed once; where it does not, commands are marked
// unsandboxed and the approval policy then asks before each one.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { SandboxPolicy } from '../protocol/enums';
import { bubblewrapArgs } from './bubblewrap';
import { guardNames, releaseNames, type NameGuard, type NameReport } from './nameGuard';
import { seatbeltArgs } from './seatbelt';
import { seccompProgram, seccompSupported } from './seccompFilter';
import { confinementOf, type Confinement } from './writableRoots';

export type SandboxKind = 'bubblewrap' | 'seatbelt';

export type Availability = { kind: SandboxKind; program: string } | { kind: 'none'; reason: string };

export interface Wrapped {
  argv: string[];
  /** The sandbox the command runs in; null when it runs unconfined. */
  sandbox: SandboxKind | null;
  /** Set when the policy wanted confinement that this machine cannot give. */
  unavailable: string | null;
  /** Bytes the sandbox reads from the child's fd 3 (bubblewrap's seccomp program), or null. */
  fd3: Buffer | null;
  /** The environment to run it with: the one given, or with TMPDIR at its private temp folder. */
  env: NodeJS.ProcessEnv;
  /** A temp folder made for this command alone (macOS); `releaseSandbox` removes it. */
  privateTmp: string | null;
  /** The protected names watched around this command (nameGuard.ts); `releaseSandbox` ends it. */
  names: NameGuard | null;
}

const NOTHING_MOVED: NameReport = { quarantined: [], complete: true };

/**
 * Removes what the sandbox made for a command, once the command has ended, and moves aside the
 * protected names it created; says what was moved.
 */
export async function releaseSandbox(wrapped: Wrapped): Promise<NameReport> {
  if (wrapped.privateTmp) rmSync(wrapped.privateTmp, { recursive: true, force: true });
  return wrapped.names ? releaseNames(wrapped.names) : NOTHING_MOVED;
}

/** bubblewrap reads its seccomp program from this inherited fd (see RunningProcess). */
const SECCOMP_FD = 3;

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
  // Namespaces alone leave host Unix sockets reachable: without the filter, bwrap is not enough.
  if (!seccompSupported()) {
    return { kind: 'none', reason: `Threadline has no seccomp filter for ${process.arch} processors` };
  }
  // bwrap needs user or mount namespaces and seccomp; a container may forbid them.
  const trial = bubblewrapWith(program, { writableRoots: [], hidden: [], network: false, privateTmp: true }, [
    '/bin/true',
  ]);
  return new Promise((resolve) => {
    const child = spawn(trial.argv[0]!, trial.argv.slice(1), {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      timeout: 5000,
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdio[SECCOMP_FD]!.on('error', () => {});
    (child.stdio[SECCOMP_FD] as NodeJS.WritableStream).end(trial.fd3);
    const fail = (why: string) =>
      resolve({ kind: 'none', reason: `bwrap cannot create a sandbox here: ${stderr.trim() || why}` });
    child.on('error', (error) => fail(error.message));
    child.on('close', (code, signal) =>
      code === 0 ? resolve({ kind: 'bubblewrap', program }) : fail(`exit ${code ?? signal}`),
    );
  });
}

function bubblewrapWith(
  program: string,
  confinement: Confinement,
  argv: string[],
): { argv: string[]; fd3: Buffer } {
  return {
    argv: [program, '--seccomp', String(SECCOMP_FD), ...bubblewrapArgs(confinement, argv)],
    fd3: seccompProgram({ network: confinement.network }),
  };
}

/**
 * The argv that runs `argv` under `policy`, given what this machine offers. The writable roots
 * come from `policyCwd` (the thread's cwd), not from the folder the command runs in (`cwd`,
 * where protected names are kept from being created too). A confined command must be released
 * (`releaseSandbox`) once it has ended.
 */
export async function wrapCommand(
  argv: string[],
  policy: SandboxPolicy,
  policyCwd: string,
  env: NodeJS.ProcessEnv,
  availability: Availability,
  cwd: string = policyCwd,
): Promise<Wrapped> {
  const confinement = await confinementOf(policy, policyCwd, env);
  const plain = { fd3: null, env, privateTmp: null, names: null };
  // Full access, or a sandbox someone else already provides: nothing to confine.
  if (confinement.writableRoots === null) return { ...plain, argv, sandbox: null, unavailable: null };
  if (availability.kind === 'none')
    return { ...plain, argv, sandbox: null, unavailable: availability.reason };
  if (availability.kind === 'bubblewrap') {
    const guarded = await guardNames(confinement, cwd, true);
    return {
      ...plain,
      ...bubblewrapWith(availability.program, guarded.confinement, argv),
      sandbox: 'bubblewrap',
      unavailable: null,
      names: guarded.guard,
    };
  }
  // Seatbelt cannot give a command its own /tmp as a mount namespace can: it gets its own folder
  // as TMPDIR instead (real path: Seatbelt matches /private/var, not the /var link).
  const privateTmp = realpathSync(mkdtempSync(join(tmpdir(), 'threadline-sandbox-')));
  const withTmp = { ...env, TMPDIR: `${privateTmp}/` };
  const confined = await confinementOf(policy, policyCwd, withTmp);
  return {
    argv: [availability.program, ...seatbeltArgs(confined, confined.privateTmp ? privateTmp : null, argv)],
    sandbox: 'seatbelt',
    unavailable: null,
    fd3: null,
    env: withTmp,
    privateTmp,
    names: (await guardNames(confined, cwd, false)).guard,
  };
}
