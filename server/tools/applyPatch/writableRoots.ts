// Which paths a sandbox policy lets the agent write without asking. In workspaceWrite that is the
// writable roots (the cwd, the listed roots, /tmp and $TMPDIR unless excluded) except each root's
// `.git`; readOnly allows nothing; dangerFullAccess and externalSandbox allow everything. Paths
// are compared after resolving symlinks, so a link inside a root cannot lead a write outside it.
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { SandboxPolicy } from '../../protocol/enums';

/** Directories kept read-only inside a writable root. */
const PROTECTED = ['.git'];

/** The paths among `paths` (absolute) that the policy does not let the agent write. */
export async function pathsOutsideWritableRoots(
  paths: string[],
  policy: SandboxPolicy,
  cwd: string,
): Promise<string[]> {
  if (policy.type === 'dangerFullAccess' || policy.type === 'externalSandbox') return [];
  if (policy.type === 'readOnly') return [...paths];
  const roots = await Promise.all(writableRoots(policy, cwd).map(realPath));
  const outside: string[] = [];
  for (const path of paths) {
    const real = await realPath(path);
    const allowed = roots.some((root) => {
      const inside = relative(root, real);
      if (inside.startsWith('..') || isAbsolute(inside)) return false;
      return !PROTECTED.includes(inside.split(/[\\/]/)[0]);
    });
    if (!allowed) outside.push(path);
  }
  return outside;
}

function writableRoots(policy: Extract<SandboxPolicy, { type: 'workspaceWrite' }>, cwd: string): string[] {
  const roots = [cwd, ...(policy.writableRoots ?? []).map((root) => resolve(cwd, root))];
  if (!policy.excludeSlashTmp && process.platform !== 'win32') roots.push('/tmp');
  if (!policy.excludeTmpdirEnvVar && process.env.TMPDIR) roots.push(tmpdir());
  return roots;
}

/** The path with symlinks resolved in the part of it that exists. */
export async function realPath(path: string): Promise<string> {
  try {
    return await fs.realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realPath(parent), basename(path));
  }
}
