// Command prefixes allowed for good (the acceptWithExecpolicyAmendment decision: "Always allow
// commands starting with …"), for every thread, kept across restarts as the reference keeps them:
// `.rules` files under THREADLINE_HOME/rules/, new ones appended to `default.rules` as lines of
// `prefix_rule(pattern=["npm", "test"], decision="allow")`. So a Codex rules file works here, and
// ours works there. Of that language only allow rules with a pattern of plain strings are read;
// any other rule is named in the log and otherwise ignored. Rules another server process adds
// are seen after a restart.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { startsWith } from './commandPrefixes';

const RULES_DIR = 'rules';
const DEFAULT_FILE = 'default.rules';
const RULE_CALL = /prefix_rule\s*\(/g;
// A rule whose arguments hold no parentheses; the others are reported as not understood.
const SIMPLE_RULE = /prefix_rule\s*\(([^()]*)\)/g;

export class ExecpolicyRules {
  private loaded: Promise<string[][]> | undefined;

  constructor(
    private readonly home: string,
    private readonly log: Logger,
  ) {}

  /** The allowed prefixes, read from the rules files on first use. */
  prefixes(): Promise<string[][]> {
    this.loaded ??= this.load();
    return this.loaded;
  }

  /** Allows the prefix from now on, in this process at once and in `default.rules` for later ones. */
  async add(prefix: string[]): Promise<void> {
    const prefixes = await this.prefixes();
    if (prefixes.some((known) => startsWith(prefix, known))) return;
    prefixes.push([...prefix]);
    const file = join(this.home, RULES_DIR, DEFAULT_FILE);
    try {
      await fs.mkdir(join(this.home, RULES_DIR), { recursive: true });
      const existing = await fs.readFile(file, 'utf8').catch(() => '');
      const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
      await fs.appendFile(
        file,
        `${separator}prefix_rule(pattern=${JSON.stringify(prefix)}, decision="allow")\n`,
      );
      this.log.info(`allowed commands starting with ${JSON.stringify(prefix)} (saved in ${file})`);
    } catch (error) {
      this.log.warn(
        `cannot save the rule for ${JSON.stringify(prefix)} in ${file}: ${(error as Error).message}; it holds until the server stops`,
      );
    }
  }

  private async load(): Promise<string[][]> {
    const dir = join(this.home, RULES_DIR);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const prefixes: string[][] = [];
    for (const name of names.filter((n) => n.endsWith('.rules')).sort()) {
      const text = await fs.readFile(join(dir, name), 'utf8').catch((error: Error) => {
        this.log.warn(`cannot read ${join(dir, name)}: ${error.message}`);
        return '';
      });
      const read = readRules(text);
      prefixes.push(...read.prefixes);
      if (read.ignored > 0) {
        this.log.info(
          `${join(dir, name)}: ignored ${read.ignored} rule(s) other than allow rules of plain words`,
        );
      }
    }
    return prefixes;
  }
}

/** The allow prefixes of a rules file, and how many of its rules were not understood. */
export function readRules(text: string): { prefixes: string[][]; ignored: number } {
  const code = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');
  const calls = code.match(RULE_CALL)?.length ?? 0;
  const prefixes: string[][] = [];
  for (const [, args] of code.matchAll(SIMPLE_RULE)) {
    const decision = /\bdecision\s*=\s*"(\w+)"/.exec(args!)?.[1] ?? 'allow';
    const pattern = /\bpattern\s*=\s*(\[[^\]]*\])/.exec(args!)?.[1];
    const words = pattern === undefined ? null : parseWords(pattern);
    if (decision === 'allow' && words?.length) prefixes.push(words);
  }
  return { prefixes, ignored: calls - prefixes.length };
}

function parseWords(list: string): string[] | null {
  try {
    // Starlark allows a trailing comma; JSON does not.
    const value: unknown = JSON.parse(list.replace(/,\s*\]$/, ']'));
    return Array.isArray(value) && value.every((w) => typeof w === 'string') ? value : null;
  } catch {
    return null;
  }
}
