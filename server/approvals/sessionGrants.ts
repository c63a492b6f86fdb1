// What the user approved for the rest of a thread: command prefixes (acceptForSession on a command,
// or an execpolicy amendment) and roots under which file changes need no more asking.
import { isAbsolute, relative, resolve, sep } from 'node:path';

export class SessionGrants {
  private readonly prefixes: string[][] = [];
  private readonly roots: string[] = [];

  allowCommandPrefix(prefix: string[]): void {
    if (prefix.length > 0 && !this.commandAllowed(prefix)) this.prefixes.push([...prefix]);
  }

  /** A command is covered when an approved prefix matches its first words exactly. */
  commandAllowed(argv: string[]): boolean {
    return this.prefixes.some(
      (prefix) => prefix.length <= argv.length && prefix.every((word, i) => argv[i] === word),
    );
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
