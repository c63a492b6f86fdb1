// Linux confinement with bubblewrap: the whole filesystem read-only, the writable roots bound
// writable again (their .git read-only), a private /tmp, no network unless allowed, and a pid
// namespace that dies with the sandbox, so killing the sandbox kills everything inside it.
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
  for (const { root, readOnly } of confinement.writableRoots ?? []) {
    args.push('--bind', root, root);
    for (const path of readOnly) args.push('--ro-bind', path, path);
  }
  if (!confinement.network) args.push('--unshare-net');
  return [...args, '--', ...argv];
}
