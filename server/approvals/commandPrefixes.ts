// Command prefixes the user allowed for good ("Always allow commands starting with …", kept as
// rules): which command lines they cover, and which prefix to offer when a command needs approval.
// A prefix covers a simple command whose first words are exactly the prefix. A whole line is
// covered only when it is plain (literal words only, server/exec/commandLine.ts) and every command
// it chains is covered or only reads; so an allowed `npm test` never lets `npm test; rm -rf ~`
// through. A prefix that would let anything run (a launcher or interpreter with nothing fixed after
// it: `bash`, `python -c`, `sudo -u root`) is never offered nor saved.
import type { CommandLine, SimpleCommand } from '../exec/commandLine';
import { basename } from '../exec/commandLine';
import { safeCommandTest } from './safeCommands';

/** A rule's pattern: each position one word, or one of several. */
export type Pattern = readonly (string | readonly string[])[];

export const startsWith = (words: readonly string[], prefix: Pattern, emptyMatches = false) =>
  (emptyMatches || prefix.length > 0) &&
  prefix.length <= words.length &&
  prefix.every((word, i) => (typeof word === 'string' ? words[i] === word : word.includes(words[i]!)));

/**
 * Whether the prefixes allow the whole line. `readersRideAlong`: read-only commands need no prefix
 * of their own (not when the line runs outside the sandbox, where reading is not harmless).
 */
export function lineCovered(
  line: CommandLine,
  prefixes: readonly Pattern[],
  readersRideAlong = true,
): boolean {
  if (!line.plain || line.commands.length === 0) return false;
  // A glob can hand a covered command options of the workspace's choosing: it is never covered.
  const allowed = line.commands.map(
    (c) => c.globs.length === 0 && prefixes.some((prefix) => startsWith(c.words, prefix)),
  );
  // Read-only commands ride along, but a line of them alone is not the grant's to allow.
  const readOnly = safeCommandTest(line);
  return (
    allowed.some(Boolean) && line.commands.every((c, i) => allowed[i] || (readersRideAlong && readOnly(c)))
  );
}

// Programs that run whatever command follows them.
const LAUNCHERS = new Set([
  'builtin',
  'busybox',
  'chroot',
  'command',
  'doas',
  'env',
  'eval',
  'exec',
  'flock',
  'ionice',
  'nice',
  'nohup',
  'pkexec',
  'runuser',
  'script',
  'setsid',
  'stdbuf',
  'strace',
  'su',
  'sudo',
  'taskset',
  'time',
  'timeout',
  'unshare',
  'watch',
  'xargs',
  // Windows: PowerShell's and cmd's ways of running a command or script given to them.
  'iex',
  'invoke-expression',
  'icm',
  'invoke-command',
  'saps',
  'start',
  'start-process',
  'ii',
  'invoke-item',
  '%',
  'foreach',
  'foreach-object',
  'sajb',
  'start-job',
  'start-threadjob',
  'cmd',
  'wsl',
  'runas',
  'rundll32',
]);
// Programs that run code given to them: safe to allow only with the code (a script, a module) fixed.
const INTERPRETERS =
  /^(?:bash|sh|zsh|dash|ksh|fish|csh|tcsh|python[\d.]*|node|nodejs|deno|bun|perl[\d.]*|ruby[\d.]*|php[\d.]*|lua[\d.]*|awk|gawk|mawk|npx|bunx|uvx|pnpx|tsx|ts-node|osascript|pwsh|powershell|py|cscript|wscript)$/;

// Package managers' subcommands that run any program or package named after them.
const RUNNERS =
  /^(?:npm (?:exec|x)|pnpm (?:exec|dlx)|yarn (?:exec|dlx)|uv run|poetry run|pipenv run|bundle exec|conda run)$/;

/** Whether allowing every command that starts with these words would allow any command at all. */
export function prefixOpensEverything(prefix: readonly string[]): boolean {
  const [program = '', ...rest] = prefix;
  // Windows finds `PWSH.EXE` as pwsh: names are compared in lower case, without `.exe`.
  const name = basename(program)
    .toLowerCase()
    .replace(/\.exe$/, '');
  if (name === '' || LAUNCHERS.has(name)) return true;
  // After an interpreter or a runner, the prefix must end in what runs (a script, `-c` code, a
  // module), not in an option still waiting for it (`python -c`, `python -W ignore -c`).
  const fixed = (words: readonly string[]) => words.length > 0 && !words.at(-1)!.startsWith('-');
  if (INTERPRETERS.test(name)) return !fixed(rest);
  if (rest.length > 0 && RUNNERS.test(`${name} ${rest[0]}`)) return !fixed(rest.slice(1));
  return false;
}

/**
 * The prefix to offer for a line that needs approval, as the reference does: the words of its first
 * command that neither only reads nor is allowed already (else its first command). None for a line
 * that is not plain (no prefix could cover it) or when the prefix would open everything.
 */
export function proposedPrefix(line: CommandLine, allowed: readonly Pattern[]): string[] | null {
  if (!line.plain || line.commands.length === 0) return null;
  const open = (c: SimpleCommand) => !allowed.some((prefix) => startsWith(c.words, prefix));
  const readOnly = safeCommandTest(line);
  const command = line.commands.find((c) => !readOnly(c) && open(c)) ?? line.commands[0]!;
  // Up to its first glob: a prefix is literal words.
  const words = command.words.slice(0, command.globs[0] ?? command.words.length);
  return prefixOpensEverything(words) ? null : words;
}
