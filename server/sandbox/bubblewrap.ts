// Linux confinement with bubblewrap: the whole filesystem read-only, the writable roots bound
// writable again, then every protected path bound read-only (last, so no root bound after it can
// re-open it), Threadline's home covered by an empty read-only tmpfs, a private /tmp, no network
// unless allowed, and a pid namespace that dies with the sandbox, so killing the sandbox kills
// everything inside it.
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
  for (const path of confinement.hidden) args.push('--tmpfs', path, '--remount-ro', path);
  if (!confinement.network) args.push('--unshare-net');
  return [...args, '--', ...argv];
}
