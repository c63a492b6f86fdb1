// The known-safe commands the `untrusted` policy runs without asking: they only read, whatever
// their arguments, except the options named here (each checked against the tool's manual: options
// that write files, run programs, or open pagers and editors). A command is known by its exact
// first word: `./cat` or `node_modules/.bin/ls` may be anything a repository ships. A line is safe
// only when it is plain (server/exec/commandLine.ts) and every command it chains is safe.
//
// Bash runs some of these itself, and a builtin can do what no program can: assign a variable of the
// shell that runs the rest of the line (PATH, HOME, BASH_CMDS), evaluate arithmetic (which runs the
// `$(…)` of an array subscript), or change how later names are looked up. Every builtin bash has was
// checked (test/unit/server/exec/bashDifferential.test.ts lists `compgen -b` and fails on any new
// one that is called safe): only those below are on the list, each with the options that do any of
// that. The rest (read, mapfile, declare, export, let, hash, enable, command, test, type, ulimit,
// umask, set, shopt, alias, source, eval, exec, trap, …) always ask; a plain line has no assignment
// words, `(( ))`, `[[ ]]` or declarations (the parse rejects them).
import type { CommandLine, SimpleCommand } from '../exec/commandLine';
import { isSafePowerShellCommand, reachesOut } from './powershellSafeCommands';

/** Options of one tool that are not read-only: short letters, and long names (GNU-style). */
interface Unsafe {
  short?: string;
  long?: string[];
}

/**
 * Bash's builtins on the list. `cd` changes only the folder: every later command of a safe line is
 * a name looked up on PATH (never a path) and only reads; it sets PWD and OLDPWD alone. `printf -v`
 * assigns any variable, an array subscript evaluated (`printf -v 'a[$(touch x)]' y`); a format's
 * numbers are parsed, not evaluated. `echo`, `pwd`, `true` and `false` take nothing that does more
 * than print.
 */
export const SAFE_BUILTINS: Record<string, Unsafe> = {
  cd: {},
  echo: {},
  false: {},
  printf: { short: 'v' },
  pwd: {},
  true: {},
};

const READERS: Record<string, Unsafe> = {
  ...SAFE_BUILTINS,
  basename: {},
  cat: {},
  // -s/--set sets the clock; -f reads dates from a file (harmless) but shares nothing we need.
  date: { short: 's', long: ['--set'] },
  df: {},
  dirname: {},
  du: {},
  egrep: {},
  fgrep: {},
  // -C compiles a magic file (writes *.mgc).
  file: { short: 'C', long: ['--compile'] },
  grep: {},
  head: {},
  id: {},
  ls: {},
  nl: {},
  readlink: {},
  realpath: {},
  // -o writes the sorted output; --compress-program runs one; -T writes temporary files.
  sort: { short: 'oT', long: ['--output', '--compress-program', '--temporary-directory'] },
  stat: {},
  tail: {},
  // -o writes the listing to a file; -R (with -H) writes 00Tree.html into every folder.
  tree: { short: 'oR' },
  uname: {},
  wc: {},
  which: {},
  whoami: {},
};

/** Every command name the list knows (each still checked for its options by isSafeCommand). */
export const KNOWN_SAFE_NAMES = [...Object.keys(READERS), 'find', 'rg', 'sed', 'git'];

// find's actions that run programs or write files (find has no short clusters).
const FIND_UNSAFE = [
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fls',
  '-fprint',
  '-fprint0',
  '-fprintf',
];
// rg: preprocessors and decompressors run programs.
const RG_UNSAFE: Unsafe = { short: 'z', long: ['--pre', '--search-zip', '--hostname-bin'] };

// git subcommands that only read, and their options that write (--output), run programs (external
// diff, textconv filters, pagers) or open an editor.
const GIT_READERS = new Set(['status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'grep', 'blame']);
const GIT_UNSAFE: Unsafe = {
  long: ['--output', '--ext-diff', '--textconv', '--open-files-in-pager', '--paginate', '--editor'],
};
const GIT_GREP_UNSAFE: Unsafe = { short: 'O', long: GIT_UNSAFE.long };
const GIT_BRANCH_LISTING = new Set(['-a', '-r', '-v', '-vv', '--list', '--show-current']);

/**
 * Whether any argument is one of the options: a short letter alone or inside a cluster (`-ro`,
 * `-Ocmd`), a long name or any abbreviation of it (`--out=x`: GNU getopt and git accept them).
 * Overmatching (a letter that was really a value) only makes the command ask.
 */
function hasOption(args: readonly string[], unsafe: Unsafe): boolean {
  return args.some((arg) => {
    if (arg.startsWith('--')) {
      const name = arg.split('=')[0]!;
      return name.length > 2 && (unsafe.long ?? []).some((long) => long.startsWith(name));
    }
    return arg.startsWith('-') && [...(unsafe.short ?? '')].some((letter) => arg.slice(1).includes(letter));
  });
}

/** One simple command that only reads. */
export function isSafeCommand(command: SimpleCommand): boolean {
  const [name = '', ...args] = command.words;
  const reader = Object.hasOwn(READERS, name) ? READERS[name] : undefined;
  // File names a glob expands to are the workspace's to choose (`-o…`, `--pre=…`): only a reader
  // none of whose options writes or runs anything may take them.
  if (command.globs.length > 0) return reader !== undefined && !reader.short && !reader.long;
  if (reader) return !hasOption(args, reader);
  switch (name) {
    case 'find':
      return !args.some((arg) => FIND_UNSAFE.includes(arg));
    case 'rg':
      return !hasOption(args, RG_UNSAFE);
    case 'sed':
      // Only printing a line range of files: `sed -n 10,20p file` (no w/e commands, no -i).
      return (
        args.length >= 3 && args[0] === '-n' && /^\d+(,\d+)?p$/.test(args[1]!) && !hasDash(args.slice(2))
      );
    case 'git':
      return isSafeGit(args[0] === '--no-pager' ? args.slice(1) : args);
    default:
      return false;
  }
}

const hasDash = (args: string[]) => args.some((arg) => arg.startsWith('-'));

function isSafeGit(args: string[]): boolean {
  // Global options (-c, -C, --exec-path, --git-dir, …) come before the subcommand: none is safe.
  const [sub = '', ...rest] = args;
  if (sub === 'grep') return !hasOption(rest, GIT_GREP_UNSAFE);
  if (GIT_READERS.has(sub)) return !hasOption(rest, GIT_UNSAFE);
  // `git branch` lists; with a name or -d/-m it changes things.
  return sub === 'branch' && rest.every((arg) => GIT_BRANCH_LISTING.has(arg));
}

/** Git on a PowerShell line: `git`, `git.exe` in any case; its arguments as on Unix. */
const isGitName = (name: string) => /^git(\.exe)?$/i.test(name);

/** One command of a plain PowerShell line that only reads: a listed cmdlet, or git as above. */
function isSafeOnPowerShell(command: SimpleCommand): boolean {
  const [name = '', ...args] = command.words;
  if (!isGitName(name)) return isSafePowerShellCommand(command.words);
  return !args.some(reachesOut) && isSafeCommand({ ...command, words: ['git', ...args] });
}

/** The read-only test for the commands of a line, by the shell that runs it. */
export const safeCommandTest = (line: CommandLine): ((command: SimpleCommand) => boolean) =>
  line.grammar === 'powershell' ? isSafeOnPowerShell : isSafeCommand;

export function isKnownSafe(line: CommandLine): boolean {
  // cmd.exe lines are never plain (commandLine.ts).
  return line.plain && line.commands.length > 0 && line.commands.every(safeCommandTest(line));
}

/** Whether some command of the line is git (see CommandCircumstances.readsRepositoryConfig). */
export const runsGit = (line: CommandLine): boolean =>
  line.commands.some((command) =>
    line.grammar === 'bash' ? command.words[0] === 'git' : isGitName(command.words[0] ?? ''),
  );
