// Which writes a sandbox policy lets apply_patch make without asking, by the same rules the sandbox
// confines commands with (server/sandbox/writableRoots.ts, protectedPaths.ts): in workspaceWrite a
// write must land inside a writable root and outside every protected path; readOnly allows
// nothing; dangerFullAccess and externalSandbox allow everything. Targets are real paths (see
// realTarget.ts), so a link inside a root cannot lead a write out of it or into `.git`; a write
// into a folder that is, or that the patch makes, a git directory is a protected one too.
import { resolveHome } from '../../config/home';
import type { SandboxPolicy } from '../../protocol/enums';
import { isProtected, isWithin, protectedSet } from '../../sandbox/protectedPaths';
import { writableRootPaths } from '../../sandbox/writableRoots';
import { gitDirectoryTargets } from './gitDirectories';

export interface UncoveredTargets {
  /** Targets outside every writable root. */
  outside: string[];
  /** Targets inside a root but in a protected path. */
  protectedTargets: string[];
}

export async function uncoveredTargets(
  targets: string[],
  policy: SandboxPolicy,
  cwd: string,
): Promise<UncoveredTargets> {
  if (policy.type === 'dangerFullAccess' || policy.type === 'externalSandbox') {
    return { outside: [], protectedTargets: [] };
  }
  if (policy.type === 'readOnly') return { outside: [...targets], protectedTargets: [] };
  const roots = await writableRootPaths(policy, cwd, process.env);
  const set = await protectedSet(roots, resolveHome(process.env));
  const inGitDirectory = new Set(await gitDirectoryTargets(targets, roots));
  const result: UncoveredTargets = { outside: [], protectedTargets: [] };
  for (const target of targets) {
    if (isProtected(target, roots, set) || inGitDirectory.has(target)) result.protectedTargets.push(target);
    else if (!roots.some((root) => isWithin(root, target))) result.outside.push(target);
  }
  return result;
}
