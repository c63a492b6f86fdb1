// thread/start's `worktree.carryChanges`: the workspace's uncommitted work (tracked files changed or
// deleted, untracked files git does not ignore) copied into a new worktree made from the same commit,
// so the thread starts where the user is. The workspace is only read: git status through the
// hardened wrapper, then plain file reads. A symbolic link, a submodule or a nested repository is
// not copied (it is listed as skipped), and no write follows a link out of the worktree.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { changedFiles, unsafeToWrite, writeFile } from './worktreeFiles';

export interface Carried {
  carried: string[];
  skipped: { path: string; reason: string }[];
}

export async function carryChanges(workspace: string, worktree: string): Promise<Carried> {
  const result: Carried = { carried: [], skipped: [] };
  for (const path of await changedFiles(workspace)) {
    const source = join(workspace, path);
    const info = await fs.lstat(source).catch(() => null);
    if (info && !info.isFile()) {
      result.skipped.push({ path, reason: 'only plain files are carried over' });
      continue;
    }
    const unsafe = await unsafeToWrite(worktree, path);
    if (unsafe !== null) {
      result.skipped.push({ path, reason: unsafe });
      continue;
    }
    const data = info ? await fs.readFile(source) : null;
    const executable = info !== null && (info.mode & 0o111) !== 0;
    await writeFile(join(worktree, path), data, executable ? '100755' : '100644');
    result.carried.push(path);
  }
  return result;
}
