// A shell command line read the way bash reads it: tree-sitter-bash parses it, and the line is
// "plain" only when the whole parse is simple commands of literal words (quoted or not) joined by
// `&&`, `||`, `;`, `|` or newlines, with nothing else anywhere: no expansion of any kind, no
// redirection, heredoc, assignment, subshell, comment, background job or parse error. Only a plain
// line's words are what bash will run; the approval rules trust nothing else. One exception, kept
// apart: a simple glob word (`*.md`, `src/*.ts`) leaves a line plain but is marked, for the few
// readers whose every option only reads. `bash -c "…"` and `bash -lc "…"` are read again inside.
import type { loadParser, Node, ParsedGrammar } from './bashParser';
import { readPowerShell } from './powershellLine';
import type { ShellGrammar } from './shellSelection';
import { globWord, literalWord } from './shellWords';

export interface SimpleCommand {
  /** The argv bash runs (for a line that is not plain, the words as written, for display only). */
  words: string[];
  /** The operator that joins it to the next command (`&&`, `||`, `;`, `|`, newline…), if any. */
  joiner: string | null;
  /** Positions of the words bash computes when it runs (expansions), shown here as written. */
  opaque: number[];
  /** Positions of simple glob patterns (`*.md`): file names, any number of them, in their place. */
  globs: number[];
}

export interface CommandLine {
  text: string;
  /** The shell language it was read in (shellSelection.ts): the safe-command rules differ. */
  grammar: ShellGrammar;
  commands: SimpleCommand[];
  /** Literal commands and the joiners above only: the words are exactly what runs. */
  plain: boolean;
  /**
   * Commands of scripts handed to a shell the line is not read through (`sh -c '…'`, or a
   * `bash -c` in a line that is not plain): for the user's forbidden and prompt rules only.
   */
  inner: SimpleCommand[];
}

const JOINERS = new Set(['&&', '||', ';', '|']);
const GROUPS = new Set(['program', 'list', 'pipeline']);
// What may sit between the parts of a command / between commands: blanks and line continuations.
const COMMAND_GAP = /^(?:[ \t]|\\\n)*$/;
const LINE_GAP = /^(?:[ \t\n]|\\\n)*$/;
// Bash and the grammar disagree on carriage returns and other control characters (`echo hi\r`).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\0-\x08\x0b-\x1f\x7f]/;
// `bash -lc 'script'`, with the shell named exactly; another shell or launcher is never opened up.
const BASH = new Set(['bash', '/bin/bash', '/usr/bin/bash']);
const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh']);
const MAX_NESTING = 3;
// Bash's reserved words: as a command's first word they are syntax, which the grammar does not all
// know (it reads `coproc ls` as a command named coproc; bash runs ls in the background).
// prettier-ignore
const RESERVED = new Set([
  '!', '[[', ']]', '{', '}', 'case', 'coproc', 'do', 'done', 'elif', 'else', 'esac', 'fi', 'for',
  'function', 'if', 'in', 'select', 'then', 'time', 'until', 'while',
]);

type Parse = <T>(text: string, read: (root: Node) => T) => T;
const parsers = new Map<ParsedGrammar, Promise<Parse>>();

function parserOf(grammar: ParsedGrammar): Promise<Parse> {
  let parser = parsers.get(grammar);
  if (!parser) {
    // require, not import(): the bundled core runs in a vm.Script without an ESM loader, and esbuild
    // turns this into loading dist/server-bash.js.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    parser = (require('./bashParser') as { loadParser: typeof loadParser }).loadParser(grammar);
    parsers.set(grammar, parser);
  }
  return parser;
}

/** A line nothing vouches for: its words as written, for display and the user's rules only. */
function unread(text: string, grammar: ShellGrammar): CommandLine {
  return {
    text,
    grammar,
    commands: [{ words: text.trim().split(/\s+/), joiner: null, opaque: [0], globs: [] }],
    plain: false,
    inner: [],
  };
}

/**
 * The line as the shell that runs it reads it. cmd.exe's (`%VAR%` expanded before parsing, `^`
 * escapes, `&` and `|` anywhere) is read by nothing here: such a line is never plain.
 */
export async function parseCommandLine(text: string, grammar: ShellGrammar = 'bash'): Promise<CommandLine> {
  if (grammar === 'cmd') return unread(text, grammar);
  let parse: Parse;
  try {
    parse = await parserOf(grammar);
  } catch {
    // No parser, no trust: the line is asked about under any policy that asks.
    parsers.delete(grammar);
    return unread(text, grammar);
  }
  if (grammar === 'powershell')
    return { text, grammar, ...parse(text, (root) => readPowerShell(root, text)), inner: [] };
  return readLine(parse, text, 0);
}

function readLine(parse: Parse, text: string, depth: number): CommandLine {
  const reading = parse(text, (root) => {
    const reader = new Reader(text);
    reader.group(root, LINE_GAP);
    if (root.hasError || CONTROL.test(text)) reader.plain = false;
    return reader;
  });
  let { plain } = reading;
  const commands: SimpleCommand[] = [];
  const hidden: SimpleCommand[] = [];
  for (const command of reading.commands) {
    const script = plain && command.globs.length === 0 ? bashScript(command.words) : null;
    if (script === null || depth >= MAX_NESTING) {
      if (script !== null) plain = false;
      commands.push(command);
      const handed = depth < MAX_NESTING ? shellScript(command) : null;
      if (handed !== null) {
        const inner = readLine(parse, handed, depth + 1);
        hidden.push(...inner.commands, ...inner.inner);
      }
      continue;
    }
    const inner = readLine(parse, script, depth + 1);
    plain &&= inner.plain && inner.commands.length > 0;
    hidden.push(...inner.inner);
    commands.push(...inner.commands.slice(0, -1));
    const last = inner.commands.at(-1);
    if (last) commands.push({ ...last, joiner: command.joiner });
  }
  return { text, grammar: 'bash', commands, plain, inner: hidden };
}

/** The script any shell is handed with `-c` (as far as it is literal), to look into for rules. */
function shellScript({ words, opaque }: SimpleCommand): string | null {
  const [program = '', flag = ''] = words;
  if (!SHELLS.has(basename(program)) || !/^-[a-z]*c$/.test(flag) || words.length < 3) return null;
  return opaque.some((i) => i <= 2) ? null : words[2]!;
}

/** The script of `bash -c script` / `bash -lc script`, nothing more on the command. */
function bashScript(words: string[]): string | null {
  const [program, flag, script, ...rest] = words;
  if (!program || !BASH.has(program) || (flag !== '-c' && flag !== '-lc')) return null;
  return script !== undefined && rest.length === 0 ? script : null;
}

class Reader {
  plain = true;
  readonly commands: SimpleCommand[] = [];

  constructor(private readonly text: string) {}

  /** program, list or pipeline: commands and the operators between them. */
  group(node: Node, gap: RegExp): void {
    this.checkGaps(node, gap);
    for (const child of children(node)) {
      if (!child.isNamed) {
        if (!JOINERS.has(child.type)) this.plain = false;
        const last = this.commands.at(-1);
        if (last && last.joiner === null) last.joiner = child.type;
      } else {
        // A newline between two statements joins them as `;` does.
        const last = this.commands.at(-1);
        if (last && last.joiner === null) last.joiner = '\n';
        this.statement(child);
      }
    }
  }

  private statement(node: Node): void {
    if (GROUPS.has(node.type)) this.group(node, node.type === 'pipeline' ? COMMAND_GAP : LINE_GAP);
    else if (node.type === 'command') this.command(node);
    else {
      // Anything else (redirections, subshells, loops, functions, comments, errors) is not plain;
      // its commands are still collected, so a forbidden rule or the display can see them.
      this.plain = false;
      for (const child of children(node)) if (child.isNamed) this.statement(child);
    }
  }

  private command(node: Node): void {
    this.checkGaps(node, COMMAND_GAP);
    const words: string[] = [];
    const hiding: Node[] = [];
    const opaque: number[] = [];
    const globs: number[] = [];
    for (const child of children(node)) {
      const name = child.type === 'command_name';
      const glob = name ? null : globWord(child);
      if (glob !== null) {
        globs.push(words.length);
        words.push(glob);
        continue;
      }
      const part = name ? onlyChild(child) : child;
      const word = part ? literalWord(part) : null;
      if (word === null || (name && (word.includes('=') || RESERVED.has(word)))) this.plain = false;
      if (word === null) {
        opaque.push(words.length);
        hiding.push(child);
      }
      words.push(word ?? child.text);
    }
    this.commands.push({ words, joiner: null, opaque, globs });
    // Commands inside its words (`echo $(rm -rf x)`), for rules and display.
    for (const child of hiding) this.nested(child);
  }

  private nested(node: Node): void {
    for (const child of children(node)) {
      if (child.type === 'command') this.command(child);
      else this.nested(child);
    }
  }

  /** Text the parse does not account for (between, before or after the children) is not trusted. */
  private checkGaps(node: Node, gap: RegExp): void {
    let at = node.type === 'program' ? 0 : node.startIndex;
    for (const child of children(node)) {
      if (!gap.test(this.text.slice(at, child.startIndex))) this.plain = false;
      at = child.endIndex;
    }
    const end = node.type === 'program' ? this.text.length : node.endIndex;
    if (!gap.test(this.text.slice(at, end))) this.plain = false;
  }
}

function children(node: Node): Node[] {
  return node.children.filter((child): child is Node => child !== null);
}

function onlyChild(node: Node): Node | null {
  const inner = children(node);
  return inner.length === 1 &&
    inner[0]!.startIndex === node.startIndex &&
    inner[0]!.endIndex === node.endIndex
    ? inner[0]!
    : null;
}

const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** One simple command as shell text, words quoted only where the shell needs it. */
export function commandText(command: SimpleCommand): string {
  return command.words
    .map((word) => (PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

/** The part of a path after its last slash. */
export function basename(program: string): string {
  return program.slice(program.lastIndexOf('/') + 1);
}
