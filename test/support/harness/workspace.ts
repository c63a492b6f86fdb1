// Throwaway workspaces: a folder of files, optionally a git repository with one commit (what `npm start` opens).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../tempDirs';

export function createWorkspace(
  files: Record<string, string>,
  options: { git?: boolean; keep?: boolean } = {},
): string {
  const dir = tempDir('threadline-workspace-', { keep: options.keep ?? false });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  if (options.git) {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '--quiet', '--initial-branch=main');
    git('add', '.');
    git(
      '-c',
      'user.name=Threadline Demo',
      '-c',
      'user.email=demo@threadline.invalid',
      'commit',
      '-qm',
      'Demo',
    );
  }
  return dir;
}
