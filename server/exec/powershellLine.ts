// A PowerShell command line read through tree-sitter-powershell, as commandLine.ts reads bash: the
// line is "plain" only when it is pipelines of commands named by a bare word, each argument a
// literal: a bare token of ordinary characters, a parameter name (`-Recurse`), a single-quoted
// string, a double-quoted string with nothing PowerShell expands in it, or a decimal number; joined
// by `|`, `;`, `&&`, `||` or newlines. Anything else (variables, `$(…)`, `@(…)`, script blocks, `&`
// and `.` invocation, splatting, redirection, `--%`, `-Param:value`, here-strings, comments) makes
// it not plain; the commands inside are still collected, for the user's rules and the display.
import type { Node } from './bashParser';
import type { SimpleCommand } from './commandLine';

export interface PowerShellReading {
  commands: SimpleCommand[];
  plain: boolean;
}

// PowerShell reads a backtick as an escape (also of a newline), typographic quotes as quotes and
// dashes as `-`; none is trusted anywhere. Control characters neither.
// eslint-disable-next-line no-control-regex
const UNTRUSTED = /[`\u2013-\u2015\u2018-\u201f\0-\x08\x0b-\x1f\x7f]/;
const NAME = /^[A-Za-z][\w.-]*$/;
const PARAMETER = /^--?[A-Za-z][\w-]*$/;
// A bare argument PowerShell passes as written: no sigils ($ @ % & ;), quotes, braces, commas.
const TOKEN = /^[\w.\\/:*?~+=-]+$/;
const GAP = /^[ \t]*$/;
const LINE_GAP = /^[ \t\n]*$/;

export function readPowerShell(root: Node, text: string): PowerShellReading {
  const reader = new Reader(text);
  reader.program(root);
  if (root.hasError || UNTRUSTED.test(text)) reader.plain = false;
  return { commands: reader.commands, plain: reader.plain };
}

class Reader {
  plain = true;
  readonly commands: SimpleCommand[] = [];

  constructor(private readonly text: string) {}

  program(root: Node): void {
    const lists = children(root);
    this.gaps(root, lists, LINE_GAP, 0, this.text.length);
    for (const list of lists) {
      if (list.type !== 'statement_list') this.opaque(list);
      else {
        this.gaps(list, children(list), LINE_GAP);
        for (const statement of children(list)) this.statement(statement);
      }
    }
  }

  private statement(node: Node): void {
    if (node.type === 'empty_statement') return this.join(';');
    if (node.type !== 'pipeline') return this.opaque(node);
    this.join('\n');
    this.gaps(node, children(node), GAP);
    for (const part of children(node)) {
      if (part.type === 'pipeline_chain') this.chain(part);
      else if (part.type === 'pipeline_chain_tail' && ['&&', '||'].includes(part.text)) this.join(part.text);
      else this.opaque(part);
    }
  }

  private chain(node: Node): void {
    this.gaps(node, children(node), GAP);
    for (const part of children(node)) {
      if (part.type === '|') this.join('|');
      else if (part.type === 'command') this.command(part);
      else this.opaque(part);
    }
  }

  private command(node: Node): void {
    const words: string[] = [];
    const opaque: number[] = [];
    const hiding: Node[] = [];
    this.gaps(node, children(node), GAP);
    const [name, elements, ...rest] = children(node);
    const named = name?.type === 'command_name';
    if (!named || !NAME.test(name.text) || name.childCount > 0) this.plain = false;
    words.push(named ? name.text : node.text);
    if (!named || rest.length > 0 || (elements && elements.type !== 'command_elements')) {
      // `& …`, `. …`, `% { … }` and the like: what they run is inside.
      this.plain = false;
      hiding.push(...children(node).filter((child) => child !== name || !named));
    } else if (elements) {
      this.gaps(elements, children(elements), GAP);
      for (const element of children(elements)) {
        if (element.type === 'command_argument_sep') {
          if (!GAP.test(element.text)) this.plain = false;
          continue;
        }
        const word = literal(element);
        if (word === null) {
          this.plain = false;
          opaque.push(words.length);
          hiding.push(element);
        }
        words.push(word ?? element.text);
      }
    }
    this.commands.push({ words, joiner: null, opaque, globs: [] });
    for (const hidden of hiding) this.nested(hidden);
  }

  /** Not plain; its commands are collected all the same. */
  private opaque(node: Node): void {
    this.plain = false;
    this.nested(node);
  }

  private nested(node: Node): void {
    for (const child of children(node)) {
      if (child.type === 'command') this.command(child);
      else this.nested(child);
    }
  }

  private join(joiner: string): void {
    const last = this.commands.at(-1);
    if (last && last.joiner === null) last.joiner = joiner;
  }

  /** Text between the children that the parse does not account for is not trusted. */
  private gaps(node: Node, parts: Node[], gap: RegExp, start = node.startIndex, end = node.endIndex): void {
    let at = start;
    for (const part of parts) {
      if (!gap.test(this.text.slice(at, part.startIndex))) this.plain = false;
      at = part.endIndex;
    }
    if (!gap.test(this.text.slice(at, end))) this.plain = false;
  }
}

/** The argument an element stands for when it is literal; null when PowerShell computes it. */
function literal(element: Node): string | null {
  if (element.type === 'command_parameter')
    return element.childCount === 0 && PARAMETER.test(element.text) ? element.text : null;
  if (element.type === 'generic_token') return TOKEN.test(element.text) ? element.text : null;
  if (element.type !== 'array_literal_expression') return null;
  const value = onlyDescendant(onlyDescendant(element, 'unary_expression'), null);
  if (!value || value.startIndex !== element.startIndex || value.endIndex !== element.endIndex) return null;
  // A number, also a negative one (`git log -3`): digits only, nothing PowerShell could compute.
  if (value.type === 'integer_literal' || value.type === 'expression_with_unary_operator')
    return /^-?\d+$/.test(value.text) ? value.text : null;
  if (value.type !== 'string_literal') return null;
  const string = onlyDescendant(value, null);
  if (!string || string.childCount > 0) return null;
  const { text } = string;
  if (string.type === 'verbatim_string_characters' && /^'(?:[^']|'')*'$/.test(text))
    return text.slice(1, -1).replace(/''/g, "'");
  // A double-quoted string expands `$…` and reads `` ` `` escapes: only one with neither is literal.
  if (string.type === 'expandable_string_literal' && /^"[^"$`]*"$/.test(text)) return text.slice(1, -1);
  return null;
}

/** The node's one child (of the type, when given) spanning all of it; null otherwise. */
function onlyDescendant(node: Node | null, type: string | null): Node | null {
  const inner = node ? children(node) : [];
  const child = inner.length === 1 ? inner[0]! : null;
  if (!child || (type !== null && child.type !== type)) return null;
  return child.startIndex === node!.startIndex && child.endIndex === node!.endIndex ? child : null;
}

function children(node: Node): Node[] {
  return node.children.filter((child): child is Node => child !== null);
}
