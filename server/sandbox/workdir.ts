// Where a sandboxed command may start. The sandbox's writable roots come from the thread, so a
// `workdir` outside them would run a command that cannot write where it starts (or, before, would
// have widened the roots to wherever the model pointed): it is refused with a reason the model can
// act on, as is one inside a protected folder or one commands cannot see.
import { promises as fs } from 'node:fs';
import { resolveHome } from '../config/home';
import type { SandboxPolicy } from '../protocol/enums';
import { isProtected, isWithin, protectedSet } from './protectedPaths';
import { writableRootPaths } from './writableRoots';

/** Why a command confined by `policy` for a thread in `threadCwd` may not start in `workdir`; null when it may. */
export async function workdirProblem(
  workdir: string,
  policy: SandboxPolicy,
  threadCwd: string,
  env: NodeJS.ProcessEnv,
): Promise<string | null> {
  if (policy.type !== 'workspaceWrite' && policy.type !== 'readOnly') return null;
  const real = await fs.realpath(workdir).catch(() => null);
  if (real === null || !(await fs.stat(real)).isDirectory()) {
    return `workdir ${workdir} is not an existing folder; no command ran.`;
  }
  const roots = policy.type === 'workspaceWrite' ? await writableRootPaths(policy, threadCwd, env) : [];
  const set = await protectedSet([], resolveHome(process.env));
  if (isProtected(real, roots, set)) {
    return `workdir ${workdir} is inside a protected folder (.git, .threadline, .codex, .vscode or Threadline's data folder), which commands cannot change or see; no command ran. Use a workdir inside ${threadCwd}.`;
  }
  if (policy.type === 'workspaceWrite' && !roots.some((root) => isWithin(root, real))) {
    return `workdir ${workdir} is outside the sandbox's writable roots (${roots.join(', ')}); commands may only start inside them, and no command ran. Use a workdir inside ${threadCwd}, or omit it.`;
  }
  return null;
}
