// How a command's processes are started and stopped on each platform. On Unix a command leads its
// own process group and a kill takes the group, so nothing it started in the background lives on.
// Windows has no process groups (`process.kill(-pid)` throws) and `detached` there opens a console
// window per command; instead the tree is taken with `taskkill /T /F`, and where taskkill cannot
// walk a tree (Wine's has no /T) the tree is read from the parent ids Windows keeps (PowerShell, else
// wmic) and each process is ended. A process ended that way has an exit code (1), not a signal, and is reported so.
import { execFile, type SpawnOptions } from 'node:child_process';
import { constants } from 'node:os';

/** What spawn needs to start a command whose tree can be killed: its own group on Unix only. */
export function treeSpawnOptions(platform: NodeJS.Platform = process.platform): SpawnOptions {
  return platform === 'win32'
    ? { detached: false, windowsHide: true }
    : { detached: true, windowsHide: true };
}

/** The exit code to report: Unix reports a signal as 128 + its number; Windows has only codes. */
export function exitCodeOf(
  code: number | null,
  signal: NodeJS.Signals | null,
  platform: NodeJS.Platform = process.platform,
): number {
  if (code !== null) return code;
  // Node names a signal for a process it ended itself (TerminateProcess), whose code is 1.
  if (platform === 'win32') return 1;
  return 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
}

/** The argv that ends a process and everything under it on Windows. */
export function taskkillArgv(pid: number): string[] {
  return ['taskkill.exe', '/PID', String(pid), '/T', '/F'];
}

/** PowerShell listing every process as `pid parentPid` lines, for walking a tree by hand. */
export const LIST_PROCESSES_ARGV = [
  'powershell.exe',
  '-NoProfile',
  '-NonInteractive',
  '-Command',
  'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId)" }',
];

/**
 * The same listing from wmic, for where PowerShell is missing (Wine has only a stub). wmic prints
 * its columns in name order, the parent's id first, in UTF-16.
 */
export const WMIC_LIST_ARGV = ['wmic.exe', 'process', 'get', 'ParentProcessId,ProcessId'];

/** wmic's `parentPid pid` rows as the `pid parentPid` lines descendantsOf reads. */
export function fromWmic(output: string): string {
  return output
    .split(/\r?\n/)
    .map((line) => line.trim().split(/\s+/))
    .filter((words) => words.length === 2)
    .map(([parent, child]) => `${child} ${parent}`)
    .join('\n');
}

/** `pid` and its descendants, parents first, from `pid parentPid` lines. */
export function descendantsOf(pid: number, listing: string): number[] {
  const children = new Map<number, number[]>();
  for (const line of listing.split(/\r?\n/)) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (!Number.isInteger(child) || !Number.isInteger(parent) || child === parent) continue;
    children.set(parent!, [...(children.get(parent!) ?? []), child!]);
  }
  const tree = [pid];
  // Each pid once, so a reused pid that loops back cannot keep the walk going.
  for (let i = 0; i < tree.length; i++) {
    for (const child of children.get(tree[i]!) ?? []) if (!tree.includes(child)) tree.push(child);
  }
  return tree;
}

/** Runs a program quietly; resolves with its stdout, or null when it failed. */
export type Runner = (argv: string[]) => Promise<string | null>;

const runQuietly: Runner = (argv) =>
  new Promise((resolve) => {
    execFile(
      argv[0]!,
      argv.slice(1),
      { windowsHide: true, timeout: 10_000, encoding: 'buffer' },
      (error, stdout) => resolve(error ? null : decodeOutput(stdout)),
    );
  });

/** Windows tools print UTF-16 when their output is not a console (wmic), others UTF-8. */
export function decodeOutput(output: Buffer): string {
  const utf16 = output[0] === 0xff && output[1] === 0xfe;
  return utf16 ? output.subarray(2).toString('utf16le') : output.toString('utf8');
}

/**
 * Kills the process `pid` and every process under it. Errors are swallowed on purpose: the tree
 * may be gone already, and a kill must never throw into the turn that asked for it.
 */
export async function killTree(
  pid: number,
  platform: NodeJS.Platform = process.platform,
  run: Runner = runQuietly,
  kill: (pid: number, signal?: NodeJS.Signals) => void = process.kill,
): Promise<void> {
  const tryKill = (target: number, signal?: NodeJS.Signals) => {
    try {
      kill(target, signal);
    } catch {
      // Gone already.
    }
  };
  if (platform !== 'win32') {
    // Also after the leader exited: what it left running in the background is still in the group.
    tryKill(-pid, 'SIGKILL');
    return;
  }
  if ((await run(taskkillArgv(pid))) !== null) return;
  const wmic = async () => {
    const output = await run(WMIC_LIST_ARGV);
    return output === null ? null : fromWmic(output);
  };
  const listing = (await run(LIST_PROCESSES_ARGV)) ?? (await wmic());
  // The whole tree is read before any kill, so an orphan is still found by its parent id; parents
  // go first, so none starts another child meanwhile.
  for (const target of listing === null ? [pid] : descendantsOf(pid, listing)) tryKill(target);
}
