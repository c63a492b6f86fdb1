// What a command line does, read for display (the commandActions of a commandExecution item):
// files it reads, folders it lists, searches it runs; anything else is `unknown`. Formatting
// helpers at the end of a pipeline (`| head`, `| wc -l`) do not count as actions of their own.
import type { CommandAction } from '../protocol/commandExecution';
import { basename, commandText, type CommandLine, type SimpleCommand } from './commandLine';
import { powershellAction } from './powershellActions';

const READERS = new Set(['cat', 'bat', 'less', 'more', 'nl', 'head', 'tail']);
const LISTERS = new Set(['ls', 'tree', 'exa', 'eza']);
const SEARCHERS = new Set(['rg', 'grep', 'egrep', 'fgrep', 'ag', 'ack']);
const FORMATTERS = new Set([
  'head',
  'tail',
  'wc',
  'sort',
  'uniq',
  'cut',
  'tr',
  'column',
  'less',
  'more',
  'cat',
]);
// Options that take a value, so the value is not mistaken for a path or a pattern.
const READER_VALUES = new Set(['-n', '-c']);
const SEARCH_VALUES = new Set([
  '-e',
  '-f',
  '-m',
  '-A',
  '-B',
  '-C',
  '-g',
  '-t',
  '--type',
  '--glob',
  '--max-count',
]);
const NO_VALUES = new Set<string>();

/** Arguments that are not options (and not option values). */
function operands(args: string[], valueOptions: Set<string> = NO_VALUES): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg !== '-') {
      if (valueOptions.has(arg)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

function actionOf(command: SimpleCommand): CommandAction | null {
  const [program = '', ...args] = command.words;
  const name = basename(program);
  const text = commandText(command);
  if (name === 'cd' || name === 'true') return null;
  if (READERS.has(name)) {
    const [path] = operands(args, READER_VALUES);
    if (path) return { type: 'read', command: text, name: basename(path), path };
  }
  if (name === 'sed' && args[0] === '-n' && /^\d+(,\d+)?p$/.test(args[1] ?? '') && args[2]) {
    return { type: 'read', command: text, name: basename(args[2]), path: args[2] };
  }
  if (LISTERS.has(name)) return { type: 'listFiles', command: text, path: operands(args)[0] ?? null };
  if ((name === 'rg' || name === 'fd') && args.includes('--files')) {
    return { type: 'listFiles', command: text, path: operands(args)[0] ?? null };
  }
  if (name === 'find') {
    const [path] = operands(args);
    const nameAt = args.findIndex((a) => a === '-name' || a === '-iname' || a === '-path');
    if (nameAt >= 0)
      return { type: 'search', command: text, query: args[nameAt + 1] ?? null, path: path ?? null };
    return { type: 'listFiles', command: text, path: path ?? null };
  }
  const searchArgs = name === 'git' && args[0] === 'grep' ? args.slice(1) : SEARCHERS.has(name) ? args : null;
  if (searchArgs) {
    const explicit = searchArgs.findIndex((a) => a === '-e');
    const rest = operands(searchArgs, SEARCH_VALUES);
    const query = explicit >= 0 ? (searchArgs[explicit + 1] ?? null) : (rest.shift() ?? null);
    return { type: 'search', command: text, query, path: rest[0] ?? null };
  }
  return { type: 'unknown', command: text };
}

export function commandActions(line: CommandLine, original: string): CommandAction[] {
  const actions: CommandAction[] = [];
  line.commands.forEach((command, index) => {
    const previous = line.commands[index - 1];
    const piped = previous?.joiner === '|' || previous?.joiner === '|&';
    if (line.grammar === 'powershell') {
      const action = powershellAction(command, piped);
      if (action) actions.push(action);
      return;
    }
    // `… | head -n 5` formats what came before; it reads nothing itself.
    if (
      piped &&
      FORMATTERS.has(basename(command.words[0] ?? '')) &&
      operands(command.words.slice(1), READER_VALUES).length === 0
    ) {
      return;
    }
    const action = actionOf(command);
    if (action) actions.push(action);
  });
  return actions.length > 0 ? actions : [{ type: 'unknown', command: original }];
}
