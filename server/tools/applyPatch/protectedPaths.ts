// Files whose change would change what the agent may do next: the editor's workspace settings
// (`.vscode/`), Threadline's own folder in a project (`.threadline/`) and THREADLINE_HOME (config.toml,
// the rules folder). A patch writing any of them is always asked about, whatever the sandbox allows
// and whatever was approved for the session, so the agent cannot raise its own permissions.
import { isAbsolute, relative, sep } from 'node:path';
import { resolveHome } from '../../config/home';
import { realPath } from './writableRoots';

const PROTECTED_FOLDERS = new Set(['.vscode', '.threadline']);

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** The paths among `paths` (absolute) that are protected, as written or once symlinks are resolved. */
export async function protectedPaths(paths: string[], home: string = resolveHome()): Promise<string[]> {
  const homes = [home, await realPath(home)];
  const guarded: string[] = [];
  for (const path of paths) {
    const forms = [path, await realPath(path)];
    const hit = forms.some(
      (form) =>
        form.split(/[\\/]/).some((part) => PROTECTED_FOLDERS.has(part)) ||
        homes.some((root) => inside(root, form)),
    );
    if (hit) guarded.push(path);
  }
  return guarded;
}
