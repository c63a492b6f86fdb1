// Command prefixes the user allowed ("Always allow commands starting with …", acceptForSession):
// which command lines they cover, and which prefix to offer when a command needs approval.
// A prefix covers a simple command whose first words are exactly the prefix. A whole line is
// covered only when it is plain (no redirections, substitutions, subshells or background jobs:
// their effects do not show in the words) and every command it chains is covered or only reads;
// so an allowed `npm test` never lets `npm test; rm -rf ~` through.
import type { CommandLine } from '../exec/commandLine';
import { basename } from '../exec/commandLine';
import { isSafeCommand } from './safeCommands';

export const startsWith = (words: readonly string[], prefix: readonly string[]) =>
  prefix.length > 0 && prefix.length <= words.length && prefix.every((word, i) => words[i] === word);

export function lineCovered(line: CommandLine, prefixes: readonly (readonly string[])[]): boolean {
  if (line.hasShellEffects || line.commands.length === 0) return false;
  const allowed = line.commands.map((c) => prefixes.some((prefix) => startsWith(c.words, prefix)));
  // Read-only commands ride along, but a line of them alone is not the grant's to allow.
  return allowed.some(Boolean) && line.commands.every((c, i) => allowed[i] || isSafeCommand(c));
}

// Programs that run whatever follows them: allowing one of them alone would allow everything.
const LAUNCHERS = new Set([
  'bash',
  'sh',
  'zsh',
  'dash',
  'env',
  'sudo',
  'doas',
  'xargs',
  'nohup',
  'nice',
  'time',
  'timeout',
  'exec',
  'eval',
  'command',
  'builtin',
]);

/**
 * The prefix to offer for a line that needs approval, as the reference does: the words of its first
 * command that neither only reads nor is allowed already (else its first command). None for a line
 * no prefix could cover, or when the prefix would be a bare launcher.
 */
export function proposedPrefix(line: CommandLine, allowed: readonly (readonly string[])[]): string[] | null {
  if (line.hasShellEffects || line.commands.length === 0) return null;
  const open = (words: string[]) => !allowed.some((prefix) => startsWith(words, prefix));
  const command = line.commands.find((c) => !isSafeCommand(c) && open(c.words)) ?? line.commands[0]!;
  const words = command.words;
  if (words.length === 0 || (words.length === 1 && LAUNCHERS.has(basename(words[0]!)))) return null;
  return [...words];
}
