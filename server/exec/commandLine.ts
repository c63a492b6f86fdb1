// A shell command line read as words and operators (shell-quote does the quoting rules), split
// into the simple commands it chains, with `bash -c "…"` wrappers opened up.
import { parse } from 'shell-quote';

export interface SimpleCommand {
  words: string[];
  /** The operator that joins it to the next command (`&&`, `||`, `;`, `|`, `&`), if any. */
  joiner: string | null;
}

export interface CommandLine {
  commands: SimpleCommand[];
  /** Every word and operator in order, for matching approved prefixes. */
  tokens: string[];
  /** Redirections, subshells, substitutions or backgrounding: effects words alone do not show. */
  hasShellEffects: boolean;
}

const JOINERS = new Set(['&&', '||', ';', '|', '|&', '&']);
const REDIRECTIONS = new Set(['>', '>>', '<', '>&', '<&', '&>', '>|', '<>']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash']);

// Variables stay as written: we read the command, we do not evaluate it.
const keepVariables = (name: string) => `$${name}`;

export function parseCommandLine(text: string): CommandLine {
  let entries: ReturnType<typeof parse>;
  try {
    entries = parse(text, keepVariables);
  } catch {
    return { commands: [{ words: [text], joiner: null }], tokens: [text], hasShellEffects: true };
  }
  const commands: SimpleCommand[] = [];
  const tokens: string[] = [];
  let words: string[] = [];
  let hasShellEffects = text.includes('`');
  let redirectTarget = false;
  for (const entry of entries) {
    if (typeof entry === 'string') {
      tokens.push(entry);
      // The file a redirection names is not an argument of the command.
      if (!redirectTarget) words.push(entry);
      redirectTarget = false;
    } else if ('op' in entry && entry.op === 'glob') {
      words.push(entry.pattern);
      tokens.push(entry.pattern);
    } else if ('op' in entry) {
      tokens.push(entry.op);
      if (JOINERS.has(entry.op)) {
        if (entry.op === '&') hasShellEffects = true;
        if (words.length) commands.push({ words, joiner: entry.op });
        words = [];
      } else {
        hasShellEffects = true;
        if (REDIRECTIONS.has(entry.op)) {
          redirectTarget = true;
          // `2>file`: the descriptor number was read as a word of its own.
          if (/^\d$/.test(words[words.length - 1] ?? '')) words.pop();
        }
      }
    }
    // Comments are dropped.
  }
  if (words.length) commands.push({ words, joiner: null });
  const inner = unwrapShell(commands);
  return inner ? { ...inner, tokens } : { commands, tokens, hasShellEffects };
}

/** `bash -lc "cmd"` alone on the line: read the inner command instead. */
function unwrapShell(commands: SimpleCommand[]): Omit<CommandLine, 'tokens'> | null {
  if (commands.length !== 1) return null;
  const [program, flag, script, ...rest] = commands[0]!.words;
  if (!program || !SHELLS.has(basename(program)) || !flag || !/^-l?c$/.test(flag)) return null;
  if (script === undefined || rest.length > 0) return null;
  const inner = parseCommandLine(script);
  return { commands: inner.commands, hasShellEffects: inner.hasShellEffects };
}

export function basename(program: string): string {
  return program.slice(program.lastIndexOf('/') + 1);
}

const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** One simple command as shell text, words quoted only where the shell needs it. */
export function commandText(command: SimpleCommand): string {
  return command.words
    .map((word) => (PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}
