// Files whose change would change what the agent may do next: the editor's workspace settings
// (`.vscode/`), the project config layers (`.threadline/`, `.codex/`) and THREADLINE_HOME (config.toml,
// the rules folder). A patch writing any of them is always asked about, whatever the sandbox allows
// and whatever was approved for the session, so the agent cannot raise its own permissions. Names
// compare without case: on a case-insensitive disk `.VSCode/settings.json` is the settings file.
import { resolveHome } from '../../config/home';
import { join } from 'node:path';
import { isWithin, WORKTREES_FOLDER } from '../../sandbox/protectedPaths';
import { realTarget } from '../../sandbox/realTarget';

const PROTECTED_FOLDERS = new Set(['.vscode', '.threadline', '.codex']);

/** The paths among `paths` (absolute) that are protected, as written or once symlinks are resolved. */
export async function protectedPaths(paths: string[], home: string = resolveHome()): Promise<string[]> {
  const homes = [home, await realTarget(home)];
  const guarded: string[] = [];
  for (const path of paths) {
    const forms = [path, await realTarget(path)];
    const hit = forms.some(
      (form) =>
        form.split(/[\\/]/).some((part) => PROTECTED_FOLDERS.has(part.toLowerCase())) ||
        // The threads' git worktrees live in the home too, but govern nothing.
        homes.some((root) => isWithin(root, form) && !isWithin(join(root, WORKTREES_FOLDER), form)),
    );
    if (hit) guarded.push(path);
  }
  return guarded;
}
