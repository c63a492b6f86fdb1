// Codex's rules language (`*.rules`, Starlark syntax) as far as Codex itself defines it: calls of
// `prefix_rule(pattern = [...], decision = "...", justification = "...", match = [...],
// not_match = [...])` with keyword arguments, strings in either quote (also triple-quoted and raw),
// lists (trailing comma allowed), `#` comments. A statement that is anything else, or a rule that
// breaks its own `match`/`not_match` examples, is reported with its line and left out: a rule is
// never guessed, so a line we do not understand can never become an allow rule.
import { startsWith, type Pattern } from './commandPrefixes';

export type RuleDecision = 'allow' | 'prompt' | 'forbidden';

export interface PrefixRule {
  pattern: Pattern;
  decision: RuleDecision;
  justification?: string;
  /** Line of the file the rule starts on. */
  line: number;
}

export interface RulesProblem {
  line: number;
  message: string;
}

type Token =
  | { kind: 'name' | 'punct'; value: string; line: number; first: boolean }
  | { kind: 'string'; value: string; line: number; first: boolean }
  | { kind: 'bad'; value: string; line: number; first: boolean };

const PUNCT = new Set(['(', ')', '[', ']', ',', '=']);
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '\n': '',
};

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let first = true;
  let i = 0;
  const push = (kind: Token['kind'], value: string, startLine: number) => {
    tokens.push({ kind, value, line: startLine, first } as Token);
    first = false;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') [line, first, i] = [line + 1, true, i + 1];
    else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '#') while (i < text.length && text[i] !== '\n') i++;
    else if (PUNCT.has(c)) {
      push('punct', c, line);
      i++;
    } else if (/[A-Za-z_]/.test(c) && !/^[rR]['"]/.test(text.slice(i, i + 2))) {
      const name = /^[A-Za-z_]\w*/.exec(text.slice(i))![0];
      push('name', name, line);
      i += name.length;
    } else if (c === '"' || c === "'" || /[rR]/.test(c)) {
      const read = readString(text, i);
      if (read) push('string', read.value, line);
      else push('bad', 'an unterminated string', line);
      const end = read?.end ?? text.indexOf('\n', i);
      const consumed = text.slice(i, end === -1 ? text.length : end);
      line += consumed.split('\n').length - 1;
      i = end === -1 ? text.length : end;
    } else {
      push('bad', `the character ${JSON.stringify(c)}`, line);
      i++;
    }
  }
  return tokens;
}

function readString(text: string, start: number): { value: string; end: number } | null {
  let i = start;
  const raw = /[rR]/.test(text[i]!);
  if (raw) i++;
  const quote = text.startsWith(text[i]!.repeat(3), i) ? text[i]!.repeat(3) : text[i]!;
  i += quote.length;
  let value = '';
  while (i < text.length) {
    if (text.startsWith(quote, i)) return { value, end: i + quote.length };
    const c = text[i]!;
    if (c === '\n' && quote.length === 1) return null;
    if (c === '\\' && i + 1 < text.length) {
      const next = text[i + 1]!;
      if (raw) value += next === quote[0] ? next : c + next;
      else value += ESCAPES[next] ?? c + next;
      i += 2;
    } else {
      value += c;
      i++;
    }
  }
  return null;
}

type Value = string | Value[];

class Statement {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  private fail(message: string): never {
    throw new Error(message);
  }

  private next(): Token {
    return this.tokens[this.at++] ?? this.fail('the file ends inside the rule');
  }

  private expect(value: string): void {
    const token = this.next();
    if (token.kind !== 'punct' || token.value !== value)
      this.fail(`expected "${value}", found ${describe(token)}`);
  }

  private peek(value: string): boolean {
    const token = this.tokens[this.at];
    return token?.kind === 'punct' && token.value === value;
  }

  value(): Value {
    const token = this.next();
    if (token.kind === 'string') return token.value;
    if (token.kind !== 'punct' || token.value !== '[')
      this.fail(`expected a string or a list, found ${describe(token)}`);
    const items: Value[] = [];
    while (!this.peek(']')) {
      items.push(this.value());
      if (!this.peek(']')) this.expect(',');
    }
    this.expect(']');
    return items;
  }

  /** `prefix_rule(name = value, …)`: the arguments by name. */
  call(): Map<string, Value> {
    const name = this.next();
    if (name.kind !== 'name' || name.value !== 'prefix_rule')
      this.fail(`expected prefix_rule(…), found ${describe(name)}`);
    this.expect('(');
    const args = new Map<string, Value>();
    while (!this.peek(')')) {
      const key = this.next();
      if (key.kind !== 'name') this.fail(`expected an argument name, found ${describe(key)}`);
      if (args.has(key.value)) this.fail(`${key.value} is given twice`);
      this.expect('=');
      args.set(key.value, this.value());
      if (!this.peek(')')) this.expect(',');
    }
    this.expect(')');
    if (this.at !== this.tokens.length)
      this.fail(`unexpected ${describe(this.tokens[this.at]!)} after the rule`);
    return args;
  }
}

function describe(token: Token): string {
  return token.kind === 'bad' ? token.value : JSON.stringify(token.value);
}

const isString = (v: Value): v is string => typeof v === 'string';
const isStringList = (v: Value): v is string[] => Array.isArray(v) && v.length > 0 && v.every(isString);

function toRule(args: Map<string, Value>, line: number): PrefixRule {
  for (const name of args.keys()) {
    if (!['pattern', 'decision', 'justification', 'match', 'not_match'].includes(name))
      throw new Error(`prefix_rule has no argument ${name}`);
  }
  const pattern = args.get('pattern');
  if (
    !Array.isArray(pattern) ||
    pattern.length === 0 ||
    !pattern.every((p) => isString(p) || isStringList(p))
  )
    throw new Error('pattern must be a non-empty list of strings (or of lists of strings)');
  const decision = args.get('decision') ?? 'allow';
  if (decision !== 'allow' && decision !== 'prompt' && decision !== 'forbidden')
    throw new Error(`decision must be "allow", "prompt" or "forbidden", not ${JSON.stringify(decision)}`);
  const justification = args.get('justification');
  if (justification !== undefined && !isString(justification))
    throw new Error('justification must be a string');
  const rule: PrefixRule = { pattern: pattern as Pattern, decision, line };
  if (justification !== undefined) rule.justification = justification;
  for (const [name, expected] of [
    ['match', true],
    ['not_match', false],
  ] as const) {
    const examples = args.get(name) ?? [];
    if (!Array.isArray(examples)) throw new Error(`${name} must be a list`);
    for (const example of examples) {
      const words = isString(example) ? splitExample(example) : isStringList(example) ? example : null;
      if (!words) throw new Error(`${name} holds something that is not a command`);
      if (startsWith(words, rule.pattern) !== expected)
        throw new Error(
          `the rule ${expected ? 'does not match' : 'matches'} its ${name} example ${JSON.stringify(words)}`,
        );
    }
  }
  return rule;
}

/** A `match` example given as one string: words split as a POSIX shell would (quotes, backslashes). */
function splitExample(text: string): string[] {
  const words: string[] = [];
  for (const [, double, single, plain] of text.matchAll(
    /"((?:[^"\\]|\\.)*)"|'([^']*)'|((?:[^\s'"\\]|\\.)+)/g,
  )) {
    words.push(double?.replace(/\\(.)/g, '$1') ?? single ?? plain!.replace(/\\(.)/g, '$1'));
  }
  return words;
}

const bracket = (token: Token) =>
  token.kind !== 'punct' ? 0 : '(['.includes(token.value) ? 1 : ')]'.includes(token.value) ? -1 : 0;

/** The rules of one file, and what in it was not understood. */
export function parseRules(text: string): { rules: PrefixRule[]; problems: RulesProblem[] } {
  const tokens = tokenize(text);
  const rules: PrefixRule[] = [];
  const problems: RulesProblem[] = [];
  // A statement starts with a name at the start of a line outside any brackets, or with
  // `prefix_rule` at the start of a line (so an unclosed bracket costs only its own rule).
  const starts = (i: number, depth: number) => {
    const token = tokens[i]!;
    return token.first && token.kind === 'name' && (depth === 0 || token.value === 'prefix_rule');
  };
  let start = 0;
  while (start < tokens.length) {
    let end = start + 1;
    let depth = bracket(tokens[start]!);
    while (end < tokens.length && !starts(end, depth)) depth += bracket(tokens[end++]!);
    const line = tokens[start]!.line;
    try {
      rules.push(toRule(new Statement(tokens.slice(start, end)).call(), line));
    } catch (error) {
      problems.push({ line, message: (error as Error).message });
    }
    start = end;
  }
  return { rules, problems };
}
