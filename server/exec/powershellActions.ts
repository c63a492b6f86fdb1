// What a PowerShell command does, read for display as commandActions.ts reads bash ones: the
// readers of the gate's list (powershellSafeCommands.ts) by their cmdlet, whatever alias names them.
import { win32 } from 'node:path';
import { powershellReader } from '../approvals/powershellSafeCommands';
import type { CommandAction } from '../protocol/commandExecution';
import type { SimpleCommand } from './commandLine';

// Parameters of the readers that take no value; every other one takes the next word.
const SWITCHES = [
  'recurse',
  'force',
  'raw',
  'name',
  'directory',
  'file',
  'hidden',
  'readonly',
  'system',
  'simplematch',
  'casesensitive',
  'notmatch',
  'allmatches',
  'list',
  'quiet',
  'noemphasis',
];

interface Arguments {
  /** Values of named parameters, by the full name the prefix stands for, when one does. */
  named: Map<string, string>;
  positional: string[];
}

function readArguments(args: string[], valued: string[]): Arguments {
  const named = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const match = /^-([A-Za-z][\w-]*)$/.exec(args[i]!);
    if (!match) {
      positional.push(args[i]!);
      continue;
    }
    const given = match[1]!.toLowerCase();
    if (SWITCHES.some((name) => name.startsWith(given))) continue;
    const name = valued.find((candidate) => candidate.startsWith(given));
    if (name && i + 1 < args.length) named.set(name, args[i + 1]!);
    i++;
  }
  return { named, positional };
}

/** One command as PowerShell text, words quoted only where PowerShell needs it. */
export function powershellCommandText(command: SimpleCommand): string {
  return command.words
    .map((word) => (/^[\w+=:./\\*?-]+$/.test(word) ? word : `'${word.replace(/'/g, "''")}'`))
    .join(' ');
}

/** The action of one command of a PowerShell line; null for one that only formats a pipe. */
export function powershellAction(command: SimpleCommand, piped: boolean): CommandAction | null {
  const [name = '', ...args] = command.words;
  const text = powershellCommandText(command);
  const cmdlet = powershellReader(name);
  const { named, positional } = readArguments(args, ['path', 'literalpath', 'pattern', 'filter']);
  const path = named.get('path') ?? named.get('literalpath') ?? null;
  switch (cmdlet) {
    case 'get-content': {
      const file = path ?? positional[0];
      return file ? { type: 'read', command: text, name: win32.basename(file), path: file } : null;
    }
    case 'get-childitem':
      return { type: 'listFiles', command: text, path: path ?? positional[0] ?? null };
    case 'select-string': {
      const query = named.get('pattern') ?? positional.shift() ?? null;
      return { type: 'search', command: text, query, path: path ?? positional[0] ?? null };
    }
    case 'measure-object':
    case 'select-object':
    case 'sort-object':
    case 'format-table':
    case 'format-list':
    case 'format-wide':
      return piped ? null : { type: 'unknown', command: text };
    default:
      return { type: 'unknown', command: text };
  }
}
