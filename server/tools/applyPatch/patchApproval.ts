// Whether a patch may be applied as it is, must be approved by the user first, or is refused, as
// the reference decides it: writes inside the sandbox's writable roots go ahead (except under
// `untrusted`, which asks about every patch); other writes are asked about, unless the approval
// policy never asks, which refuses them. An earlier acceptForSession covering the paths counts as
// a yes. Writes to settings that govern the agent (protectedPaths.ts) always ask, or are refused
// where nothing may ask.
import { dirname, isAbsolute, relative, sep } from 'node:path';
import type { ToolPermissions } from '../../agent/tool';
import { protectedPaths } from './protectedPaths';
import { pathsOutsideWritableRoots } from './writableRoots';

export type PatchVerdict =
  | { kind: 'apply' }
  | { kind: 'ask'; reason: string | null; grantRoot: string }
  | { kind: 'refuse'; reason: string };

export async function patchVerdict(
  paths: string[],
  permissions: ToolPermissions,
  cwd: string,
  allowedForSession: (paths: string[]) => boolean,
): Promise<PatchVerdict> {
  const policy = permissions.approvalPolicy;
  const mayAsk = typeof policy === 'string' ? policy !== 'never' : policy.granular.sandbox_approval;
  const guarded = await protectedPaths(paths);
  if (guarded.length > 0) {
    const reason = `writes settings that govern the agent, which always need approval: ${guarded.join(', ')}`;
    if (!mayAsk)
      return { kind: 'refuse', reason: `the patch ${reason}; the approval policy does not allow asking` };
    return { kind: 'ask', reason, grantRoot: commonRoot(paths, cwd) };
  }
  if (allowedForSession(paths)) return { kind: 'apply' };
  const outside = await pathsOutsideWritableRoots(paths, permissions.sandboxPolicy, cwd);
  if (outside.length === 0 && policy !== 'untrusted') return { kind: 'apply' };
  const reason =
    outside.length > 0 ? `writes outside the sandbox's writable roots: ${outside.join(', ')}` : null;
  if (!mayAsk) {
    return { kind: 'refuse', reason: `the patch ${reason}, and the approval policy does not allow asking` };
  }
  return { kind: 'ask', reason, grantRoot: commonRoot(paths, cwd) };
}

/** The working directory when every path is inside it, else the deepest directory holding them all. */
function commonRoot(paths: string[], cwd: string): string {
  const holdsAll = (root: string) =>
    paths.every((path) => {
      const rel = relative(root, path);
      return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
    });
  if (holdsAll(cwd)) return cwd;
  let root = dirname(paths[0]);
  while (!holdsAll(root) && dirname(root) !== root) root = dirname(root);
  return root;
}
