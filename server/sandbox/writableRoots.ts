// The places a policy lets commands (and apply_patch) write, and what stays read-only or hidden
// inside them. The roots come from the thread's policy and cwd only: a command's own working
// folder, which the model chooses, never widens them.
import { promises as fs } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { resolveHome } from '../config/home';
import type { SandboxPolicy } from '../protocol/enums';
import { isWithin, protectedSet } from './protectedPaths';

export interface WritableRoot {
  root: string;
  /** Protected paths under the root (see protectedPaths.ts), bound read-only after every root. */
  readOnly: string[];
}

export interface Confinement {
  /** Null: everything is writable (no confinement of writes). */
  writableRoots: WritableRoot[] | null;
  /** Folders the command must not see at all (Threadline's home: keys, threads, rules). */
  hidden: string[];
  network: boolean;
  /** A private, writable /tmp for the command (workspaceWrite without excludeSlashTmp). */
  privateTmp: boolean;
}

/**
 * The real paths of the writable roots of a workspaceWrite policy for a thread in `cwd`: the cwd,
 * the listed roots and $TMPDIR unless excluded, those that exist. /tmp is not one of them: commands
 * get a private /tmp instead, so a patch there would write where no command looks.
 */
export async function writableRootPaths(
  policy: Extract<SandboxPolicy, { type: 'workspaceWrite' }>,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  const roots = [cwd, ...(policy.writableRoots ?? [])];
  const tmpdir = env.TMPDIR;
  if (!policy.excludeTmpdirEnvVar && tmpdir && isAbsolute(tmpdir)) roots.push(tmpdir);
  const real = await Promise.all(roots.map((root) => fs.realpath(resolve(cwd, root)).catch(() => null)));
  // Parents first, so a parent bound after its child cannot hide the child's bind.
  return [...new Set(real.filter((root): root is string => root !== null))].sort(
    (a, b) => a.length - b.length,
  );
}

/** What a policy allows, for commands of a thread whose cwd is `cwd`. */
export async function confinementOf(
  policy: SandboxPolicy,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Confinement> {
  // The server's own home, whatever the command's environment says.
  const home = resolveHome(process.env);
  const hidden = async () => (await protectedSet([], home)).hidden;
  switch (policy.type) {
    case 'dangerFullAccess':
      return { writableRoots: null, hidden: [], network: true, privateTmp: false };
    case 'externalSandbox':
      return {
        writableRoots: null,
        hidden: [],
        network: policy.networkAccess === 'enabled',
        privateTmp: false,
      };
    case 'readOnly':
      return {
        writableRoots: [],
        hidden: await hidden(),
        network: policy.networkAccess === true,
        privateTmp: false,
      };
    case 'workspaceWrite': {
      const roots = await writableRootPaths(policy, cwd, env);
      const protectedPaths = await protectedSet(roots, home);
      return {
        writableRoots: roots.map((root) => ({
          root,
          readOnly: protectedPaths.paths.filter((path) => isWithin(root, path)),
        })),
        hidden: protectedPaths.hidden,
        network: policy.networkAccess === true,
        privateTmp: !policy.excludeSlashTmp,
      };
    }
  }
}
