// Whether a patch may be applied as it is, must be approved by the user first, or is refused, as
// the reference decides it: writes inside the sandbox's writable roots go ahead (except under
// `untrusted`, which asks about every patch); other writes are asked about, unless the approval
// policy never asks, which refuses them. Everything is decided on the real targets (links
// resolved). An earlier acceptForSession covering the targets counts as a yes, except for a write
// into a protected path (`.git`, `.threadline`, `.codex`, `.vscode`, Threadline's home), which is asked about each time.
// Writes to settings that govern the agent (protectedPaths.ts) always ask, or are refused where
// nothing may ask, whatever the sandbox allows.
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import type { ToolPermissions } from '../../agent/tool';
import { isWithin } from '../../sandbox/protectedPaths';
import type { FileWrite } from './planPatch';
import { protectedPaths } from './protectedPaths';
import { uncoveredTargets } from './writableRoots';

export type PatchVerdict =
  | { kind: 'apply' }
  | { kind: 'ask'; reason: string | null; grantRoot: string }
  | { kind: 'refuse'; reason: string };

export async function patchVerdict(
  writes: Pick<FileWrite, 'path' | 'target'>[],
  permissions: ToolPermissions,
  cwd: string,
  allowedForSession: (targets: string[]) => boolean,
): Promise<PatchVerdict> {
  const policy = permissions.approvalPolicy;
  const mayAsk = typeof policy === 'string' ? policy !== 'never' : policy.granular.sandbox_approval;
  const targets = writes.map((write) => write.target);
  const realCwd = await fs.realpath(cwd).catch(() => cwd);
  const guarded = await protectedPaths(writes.map((write) => write.path));
  if (guarded.length > 0) {
    const reason = `writes settings that govern the agent, which always need approval: ${guarded.join(', ')}`;
    if (!mayAsk)
      return { kind: 'refuse', reason: `the patch ${reason}; the approval policy does not allow asking` };
    return { kind: 'ask', reason, grantRoot: commonRoot(targets, realCwd) };
  }
  const { outside, protectedTargets } = await uncoveredTargets(targets, permissions.sandboxPolicy, cwd);
  if (protectedTargets.length === 0 && allowedForSession(targets)) return { kind: 'apply' };
  if (outside.length === 0 && protectedTargets.length === 0 && policy !== 'untrusted')
    return { kind: 'apply' };
  const named = (list: string[]) =>
    writes
      .filter((write) => list.includes(write.target))
      .map(({ path, target }) => (path === target ? path : `${path} (a link to ${target})`))
      .join(', ');
  const reasons = [
    outside.length ? `writes outside the sandbox's writable roots: ${named(outside)}` : '',
    protectedTargets.length
      ? `writes into a protected folder (.git, .threadline, .codex, .vscode or Threadline's data folder): ${named(protectedTargets)}`
      : '',
  ].filter(Boolean);
  const reason = reasons.length ? reasons.join('; and ') : null;
  if (!mayAsk) {
    return { kind: 'refuse', reason: `the patch ${reason}, and the approval policy does not allow asking` };
  }
  return { kind: 'ask', reason, grantRoot: commonRoot(targets, realCwd) };
}

/** The working directory when every target is inside it, else the deepest directory holding them all. */
function commonRoot(targets: string[], cwd: string): string {
  const holdsAll = (root: string) => targets.every((target) => isWithin(root, target));
  if (holdsAll(cwd)) return cwd;
  let root = dirname(targets[0]!);
  while (!holdsAll(root) && dirname(root) !== root) root = dirname(root);
  return root;
}
