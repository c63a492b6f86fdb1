// What the user approved for the rest of a thread: command lines (acceptForSession on a command)
// and roots under which file changes need no more asking. A plain line approved for the session
// allows each of its commands as a prefix; a line with shell effects is allowed again only as it is.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { CommandLine } from '../exec/commandLine';
import { lineCovered } from './commandPrefixes';

export class SessionGrants {
  private readonly prefixes: string[][] = [];
  private readonly exactLines: string[][] = [];
  private readonly roots: string[] = [];

  allowCommandLine(line: CommandLine): void {
    if (line.hasShellEffects) {
      this.exactLines.push([...line.tokens]);
      return;
    }
    for (const { words } of line.commands) if (words.length) this.prefixes.push([...words]);
  }

  /** The prefixes approved for the session. */
  get commandPrefixes(): readonly string[][] {
    return this.prefixes;
  }

  /** Whether the line was approved for the session, or is covered by these prefixes or the session's. */
  commandAllowed(line: CommandLine, alsoPrefixes: readonly string[][] = []): boolean {
    const same = (tokens: string[]) =>
      tokens.length === line.tokens.length && tokens.every((t, i) => line.tokens[i] === t);
    return this.exactLines.some(same) || lineCovered(line, [...this.prefixes, ...alsoPrefixes]);
  }

  allowRoot(root: string): void {
    const absolute = resolve(root);
    if (!this.pathAllowed(absolute)) this.roots.push(absolute);
  }

  pathsAllowed(paths: string[]): boolean {
    return paths.length > 0 && paths.every((path) => this.pathAllowed(path));
  }

  private pathAllowed(path: string): boolean {
    const absolute = resolve(path);
    return this.roots.some((root) => {
      const inside = relative(root, absolute);
      return inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
    });
  }
}
