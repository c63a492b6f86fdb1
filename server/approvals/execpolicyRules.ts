// The user's command rules, for every thread, kept across restarts as the reference keeps them:
// `*.rules` files under THREADLINE_HOME/rules/ in Codex's rules language (rulesLanguage.ts), read at
// the first command check. "Always allow commands starting with …" (acceptWithExecpolicyAmendment)
// appends `prefix_rule(pattern=["npm", "test"], decision="allow")` to `default.rules`. When rules
// disagree the strictest wins: forbidden, then prompt, then allow. Rules another server process adds
// are seen after a restart.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { CommandLine, SimpleCommand } from '../exec/commandLine';
import type { Logger } from '../log';
import { prefixOpensEverything, startsWith, type Pattern } from './commandPrefixes';
import { allowRuleLine } from '../protocol/execpolicyRule';
import { parseRules, type PrefixRule } from './rulesLanguage';

const RULES_DIR = 'rules';
const DEFAULT_FILE = 'default.rules';
const STRICTNESS = { allow: 0, prompt: 1, forbidden: 2 } as const;

/** What the rules say about a line beyond allowing it: refuse it, or ask whatever the policy says. */
export interface RuleVerdict {
  decision: 'forbidden' | 'prompt';
  /** The matching rule's justification, or a description of the rule. */
  reason: string;
}

export class ExecpolicyRules {
  private loaded: Promise<PrefixRule[]> | undefined;

  constructor(
    private readonly home: string,
    private readonly log: Logger,
  ) {}

  private rules(): Promise<PrefixRule[]> {
    this.loaded ??= this.load();
    return this.loaded;
  }

  /** The patterns of the allow rules. */
  async prefixes(): Promise<Pattern[]> {
    return (await this.rules()).filter((r) => r.decision === 'allow').map((r) => r.pattern);
  }

  /**
   * The strictest forbidden or prompt rule matching any command of the line (commands inside
   * substitutions and `sh -c` scripts included). A command whose words are computed when it runs may match a rule we
   * cannot tell: a forbidden rule it may match makes it ask.
   */
  async verdict(line: CommandLine): Promise<RuleVerdict | null> {
    let found: RuleVerdict | null = null;
    const rank = (v: RuleVerdict | null) => (v ? STRICTNESS[v.decision] : 0);
    for (const rule of await this.rules()) {
      if (rule.decision === 'allow') continue;
      const pattern = line.grammar === 'bash' ? rule.pattern : foldPattern(rule.pattern);
      for (const written of [...line.commands, ...line.inner]) {
        const command = line.grammar === 'bash' ? written : foldCommand(written);
        const match = matchOf(command, pattern);
        if (match === 'no') continue;
        const verdict: RuleVerdict =
          match === 'yes'
            ? { decision: rule.decision, reason: rule.justification ?? describeRule(rule.pattern) }
            : {
                decision: 'prompt',
                reason: `its words are computed when it runs, and ${describeRule(rule.pattern)}`,
              };
        if (rank(verdict) > rank(found)) found = verdict;
      }
    }
    return found;
  }

  /** Allows the prefix from now on, in this process at once and in `default.rules` for later ones. */
  async add(prefix: string[]): Promise<void> {
    if (prefixOpensEverything(prefix)) {
      this.log.warn(
        `not allowing commands starting with ${JSON.stringify(prefix)}: that would allow any command`,
      );
      return;
    }
    const rules = await this.rules();
    if (rules.some((r) => r.decision === 'allow' && startsWith(prefix, r.pattern))) return;
    rules.push({ pattern: [...prefix], decision: 'allow', line: 0 });
    const file = join(this.home, RULES_DIR, DEFAULT_FILE);
    try {
      await fs.mkdir(join(this.home, RULES_DIR), { recursive: true });
      const existing = await fs.readFile(file, 'utf8').catch(() => '');
      const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
      await fs.appendFile(file, `${separator}${allowRuleLine(prefix)}\n`);
      this.log.info(`allowed commands starting with ${JSON.stringify(prefix)} (saved in ${file})`);
    } catch (error) {
      this.log.warn(
        `cannot save the rule for ${JSON.stringify(prefix)} in ${file}: ${(error as Error).message}; it holds until the server stops`,
      );
    }
  }

  private async load(): Promise<PrefixRule[]> {
    const dir = join(this.home, RULES_DIR);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const rules: PrefixRule[] = [];
    for (const name of names.filter((n) => n.endsWith('.rules')).sort()) {
      const path = join(dir, name);
      const text = await fs.readFile(path, 'utf8').catch((error: Error) => {
        this.log.warn(`cannot read ${path}: ${error.message}`);
        return '';
      });
      const read = parseRules(text);
      for (const { line, message } of read.problems) this.log.warn(`${path}:${line}: ${message}; ignored`);
      for (const rule of read.rules) {
        // Only literal words can open everything; a list of alternatives is checked word by word.
        const opens = rule.decision === 'allow' && expand(rule.pattern).some(prefixOpensEverything);
        if (opens)
          this.log.warn(
            `${path}:${rule.line}: an allow rule for a bare launcher or interpreter would allow any command; ignored`,
          );
        else rules.push(rule);
      }
    }
    return rules;
  }
}

// Windows shells find commands in any case, and `git.exe` as `git`: on their lines a forbidden or
// prompt rule matches that way too (an allow rule still needs the words exactly as written).
const foldWord = (word: string, first: boolean) =>
  first ? word.toLowerCase().replace(/\.exe$/, '') : word.toLowerCase();
const foldCommand = (command: SimpleCommand): SimpleCommand => ({
  ...command,
  words: command.words.map((word, i) => foldWord(word, i === 0)),
});
const foldPattern = (pattern: Pattern): Pattern =>
  pattern.map((part, i) =>
    typeof part === 'string' ? foldWord(part, i === 0) : part.map((word) => foldWord(word, i === 0)),
  );

/** Every literal prefix a pattern stands for (a pattern's alternatives are few). */
function expand(pattern: Pattern): string[][] {
  return pattern.reduce<string[][]>(
    (prefixes, part) =>
      prefixes.flatMap((p) => (typeof part === 'string' ? [part] : part).map((w) => [...p, w])),
    [[]],
  );
}

const describeRule = (pattern: Pattern) =>
  `a rule matches commands starting with \`${pattern.map((p) => (typeof p === 'string' ? p : `[${p.join('|')}]`)).join(' ')}\``;

/**
 * Whether the command starts with the pattern: surely, or perhaps (a computed word comes before the
 * pattern ends; it may expand to any number of words).
 */
function matchOf(command: SimpleCommand, pattern: Pattern): 'yes' | 'maybe' | 'no' {
  // A glob too may stand for any number of words.
  const firstOpaque = Math.min(
    command.opaque[0] ?? Infinity,
    command.globs[0] ?? Infinity,
    command.words.length,
  );
  if (firstOpaque >= pattern.length) return startsWith(command.words, pattern) ? 'yes' : 'no';
  return startsWith(command.words.slice(0, firstOpaque), pattern.slice(0, firstOpaque), true)
    ? 'maybe'
    : 'no';
}
