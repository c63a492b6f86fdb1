// What the user approved for the rest of a thread: command lines (acceptForSession on a command)
// and roots under which file changes need no more asking. A command line approved for the session
// allows that same line again (the same argv lists joined the same way; for a line that is not plain,
// the same text), never a prefix of it: "Always allow commands starting with …" is the only way to
// allow a prefix. A yes to run outside the sandbox is remembered as such; a yes to run inside it does
// not let the same line leave the sandbox.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { CommandLine } from '../exec/commandLine';
import { lineCovered, type Pattern } from './commandPrefixes';

/** Two lines with the same identity run the same programs with the same arguments. */
function identity(line: CommandLine): string {
  if (!line.plain) return JSON.stringify(['text', line.text]);
  const commands = line.commands.map((c) => [c.words, c.globs, c.joiner === '\n' ? ';' : c.joiner]);
  return JSON.stringify(['argv', commands]);
}

export class SessionGrants {
  /** Approved lines, and whether each was approved to run outside the sandbox. */
  private readonly lines = new Map<string, boolean>();
  private readonly roots: string[] = [];

  allowCommandLine(line: CommandLine, unsandboxed: boolean): void {
    const key = identity(line);
    this.lines.set(key, unsandboxed || this.lines.get(key) === true);
  }

  /**
   * Whether the line was approved for the session, or the prefixes (rules) cover it. Outside the
   * sandbox, every command of the line must be covered itself.
   */
  commandAllowed(line: CommandLine, prefixes: readonly Pattern[], unsandboxed: boolean): boolean {
    const approved = this.lines.get(identity(line));
    if (approved !== undefined && (approved || !unsandboxed)) return true;
    return lineCovered(line, prefixes, !unsandboxed);
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
