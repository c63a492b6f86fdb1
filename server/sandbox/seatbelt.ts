// macOS confinement: a sandbox-exec (Seatbelt) profile generated from the policy. Reads are
// allowed everywhere; writes only under the writable roots (their .git excepted) and to the
// terminal devices; network only when the policy allows it.
import type { Confinement } from './writableRoots';

/** A Seatbelt string literal: backslashes and quotes escaped. */
const literal = (path: string) => `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export function seatbeltProfile(confinement: Confinement): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow file-read*)',
    '(allow file-write-data (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
  ];
  for (const { root, readOnly } of confinement.writableRoots ?? []) {
    const except = readOnly.map((path) => ` (require-not (subpath ${literal(path)}))`).join('');
    lines.push(
      except
        ? `(allow file-write* (require-all (subpath ${literal(root)})${except}))`
        : `(allow file-write* (subpath ${literal(root)}))`,
    );
  }
  if (confinement.privateTmp) lines.push('(allow file-write* (subpath "/private/tmp"))');
  if (confinement.network)
    lines.push('(allow network-outbound)', '(allow network-inbound)', '(allow system-socket)');
  // Threadline's home (keys, threads, rules): last, since later rules win over the allows above.
  for (const path of confinement.hidden)
    lines.push(`(deny file-read* file-write* (subpath ${literal(path)}))`);
  return lines.join('\n') + '\n';
}

export function seatbeltArgs(confinement: Confinement, argv: string[]): string[] {
  return ['-p', seatbeltProfile(confinement), '--', ...argv];
}
