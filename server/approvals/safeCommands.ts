// The known-safe commands the `untrusted` policy runs without asking: they only read. A line is
// safe when every command it chains is, and it has no redirections, substitutions, subshells or
// background jobs (their effects do not show in the words).
import { basename, type CommandLine, type SimpleCommand } from '../exec/commandLine';

const ALWAYS_SAFE = new Set([
  'cat',
  'cd',
  'echo',
  'false',
  'grep',
  'egrep',
  'fgrep',
  'head',
  'ls',
  'nl',
  'pwd',
  'tail',
  'true',
  'wc',
  'which',
  'whoami',
  'id',
  'uname',
  'date',
  'stat',
  'file',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'tree',
  'du',
  'df',
  'printf',
]);

const GIT_READERS = new Set(['status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'grep', 'blame']);

// find options that run programs or write files.
const FIND_UNSAFE = new Set([
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fls',
  '-fprint',
  '-fprint0',
  '-fprintf',
]);
// rg options that run programs (preprocessors, decompressors).
const RG_UNSAFE = new Set(['--pre', '--search-zip', '-z', '--hostname-bin']);

/** One simple command that only reads. */
export function isSafeCommand(command: SimpleCommand): boolean {
  const [program = '', ...args] = command.words;
  const name = basename(program);
  if (ALWAYS_SAFE.has(name)) return true;
  switch (name) {
    case 'find':
      return !args.some((a) => FIND_UNSAFE.has(a));
    case 'rg':
      return !args.some((a) => RG_UNSAFE.has(a) || a.startsWith('--pre='));
    case 'sed':
      // Only printing a line range of a file: `sed -n 10,20p file`.
      return args.length === 3 && args[0] === '-n' && /^\d+(,\d+)?p$/.test(args[1]!);
    case 'git': {
      const sub = args[0] ?? '';
      if (GIT_READERS.has(sub)) return !args.some((a) => a.startsWith('--output') || a === '--ext-diff');
      // `git branch` lists; with a name or -d/-m it changes things.
      return (
        sub === 'branch' &&
        args.slice(1).every((a) => ['-a', '-r', '-v', '-vv', '--list', '--show-current'].includes(a))
      );
    }
    default:
      return false;
  }
}

export function isKnownSafe(line: CommandLine): boolean {
  return !line.hasShellEffects && line.commands.length > 0 && line.commands.every(isSafeCommand);
}
