// macOS confinement: a sandbox-exec (Seatbelt) profile generated from the policy. Closed by default.
// Reads are allowed everywhere; writes only under the writable roots (their protected paths
// excepted), the command's own temp folder and the terminal devices. Mach services are an explicit
// list: a lookup of LaunchServices, the pasteboard or the keychain would let a command act outside
// the sandbox (open a Terminal, run an app), so none of those is on it. Without network, no socket
// may connect anywhere, Unix sockets included (the ssh agent, docker, VS Code's IPC hook).
import { PROTECTED_NAMES, revealedRoots } from './protectedPaths';
import type { Confinement } from './writableRoots';

/** A Seatbelt string literal: backslashes and quotes escaped. */
const literal = (path: string) => `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * A path as a pattern in a `#"…"` regex literal, which ends at the first quote and has no escape
 * for one: a quote in the path matches any character there, which only widens a deny.
 */
const pattern = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/"/g, '.');

/** `.git` as `\.[gG][iI][tT]`: the disk may ignore case, and Seatbelt's regex has no flag for it. */
const anyCase = (name: string) =>
  [...name].map((c) => (c === '.' ? '\\.' : `[${c.toLowerCase()}${c.toUpperCase()}]`)).join('');

/**
 * Protected names are refused under a root whether or not they exist and at any depth: Seatbelt
 * matches each write's path when it happens, so `git init` or `mkdir sub/.git` fails at once.
 */
const protectedNamesRule = (root: string) =>
  `(deny file-write* (regex #"^${pattern(root)}/(.*/)?(${PROTECTED_NAMES.map(anyCase).join('|')})(/|$)"))`;

const globalNames = (names: string[]) => names.map((name) => `  (global-name ${literal(name)})`);

/** Services every command may reach: none of them starts or drives another program. */
const MACH_SERVICES = [
  'com.apple.system.opendirectoryd.libinfo', // user and group lookups (id, whoami, git, ssh)
  'com.apple.system.opendirectoryd.membership', // group membership checks
  'com.apple.PowerManagement.control', // power assertions some runtimes take
];

/** With network allowed: name resolution, proxy settings and TLS certificate checks. */
const NETWORK_MACH_SERVICES = [
  'com.apple.dnssd.service',
  'com.apple.SystemConfiguration.configd',
  'com.apple.SystemConfiguration.DNSConfiguration',
  'com.apple.trustd',
  'com.apple.trustd.agent',
];

const BASE = [
  '(version 1)',
  '(deny default)',
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow signal (target same-sandbox))',
  '(allow process-info* (target same-sandbox))',
  '(allow mach-host*)', // host_processor_info, for os.cpus() and the like
  '(allow sysctl-read)',
  '(allow sysctl-write (sysctl-name "kern.grade_cputype"))', // a read that Java makes as a write
  '(allow user-preference-read)',
  '(allow ipc-posix-sem)', // Python multiprocessing locks
  '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
  '(allow file-read*)',
  '(allow file-write-data (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
];

/**
 * The profile for `confinement`. `privateTmp` is a folder made for this command alone (its TMPDIR):
 * the shared /tmp and /var/folders stay read-only, so a command cannot plant files or sockets there
 * for other programs.
 */
export function seatbeltProfile(confinement: Confinement, privateTmp: string | null): string {
  const lines = [...BASE, '(allow mach-lookup', ...globalNames(MACH_SERVICES), ')'];
  for (const { root, readOnly } of confinement.writableRoots ?? []) {
    const except = readOnly.map((path) => ` (require-not (subpath ${literal(path)}))`).join('');
    lines.push(
      except
        ? `(allow file-write* (require-all (subpath ${literal(root)})${except}))`
        : `(allow file-write* (subpath ${literal(root)}))`,
    );
  }
  if (privateTmp) lines.push(`(allow file-write* (subpath ${literal(privateTmp)}))`);
  // After the allows above, which it narrows.
  for (const { root } of confinement.writableRoots ?? []) lines.push(protectedNamesRule(root));
  if (confinement.network) {
    lines.push(
      '(allow network-outbound (remote ip "*:*"))',
      '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
      '(allow network-inbound (local ip "*:*"))',
      '(allow network-bind (local ip "*:*"))',
      '(allow system-socket)',
      '(allow mach-lookup',
      ...globalNames(NETWORK_MACH_SERVICES),
      ')',
    );
  }
  // Threadline's home (keys, threads, rules): last, since later rules win over the allows above.
  const revealed = revealedRoots(
    confinement.hidden,
    (confinement.writableRoots ?? []).map(({ root }) => root),
  );
  for (const path of confinement.hidden) {
    // Except a thread's own worktree in the home (its protected paths were left out of the allow).
    const except = revealed.map((root) => ` (require-not (subpath ${literal(root)}))`).join('');
    lines.push(
      except
        ? `(deny file-read* file-write* (require-all (subpath ${literal(path)})${except}))`
        : `(deny file-read* file-write* (subpath ${literal(path)}))`,
    );
  }
  return lines.join('\n') + '\n';
}

export function seatbeltArgs(confinement: Confinement, privateTmp: string | null, argv: string[]): string[] {
  return ['-p', seatbeltProfile(confinement, privateTmp), '--', ...argv];
}
