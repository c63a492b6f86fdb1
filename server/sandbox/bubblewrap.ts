// Linux confinement with bubblewrap: the whole filesystem read-only, the writable roots bound
// writable again, then every protected path bound read-only (last, so no root bound after it can
// re-open it), Threadline's home covered by an empty read-only tmpfs, a private /tmp, no network
// unless allowed, and a pid namespace that dies with the sandbox, so killing the sandbox kills
// everything inside it.
import { isWithin, revealedRoots } from './protectedPaths';
import type { Confinement } from './writableRoots';

export function bubblewrapArgs(confinement: Confinement, argv: string[]): string[] {
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
  ];
  if (confinement.privateTmp) args.push('--tmpfs', '/tmp');
  const roots = confinement.writableRoots ?? [];
  for (const { root } of roots) args.push('--bind', root, root);
  for (const path of new Set(roots.flatMap((root) => root.readOnly))) args.push('--ro-bind', path, path);
  const revealed = revealedRoots(
    confinement.hidden,
    roots.map(({ root }) => root),
  );
  for (const path of confinement.hidden) {
    args.push('--tmpfs', path);
    // A thread's worktree in the home comes back over the cover, its protected paths read-only again.
    for (const { root, readOnly } of roots.filter(
      (r) => revealed.includes(r.root) && isWithin(path, r.root),
    )) {
      args.push('--bind', root, root);
      for (const ro of readOnly) args.push('--ro-bind', ro, ro);
    }
    args.push('--remount-ro', path);
  }
  if (!confinement.network) args.push('--unshare-net');
  return [...args, '--', ...argv];
}
