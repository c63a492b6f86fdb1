import { strict as assert } from 'node:assert';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { protectedPaths } from '../../../../server/tools/applyPatch/protectedPaths';
import { tempDir } from '../../../support/serverProcess';

describe('paths a patch may never write without asking', () => {
  it('are the editor settings, .threadline and THREADLINE_HOME, also reached through a symlink', async () => {
    const root = tempDir('threadline-protected-');
    const repo = join(root, 'repo');
    const home = join(root, 'home');
    mkdirSync(join(repo, '.vscode'), { recursive: true });
    mkdirSync(join(home, 'rules'), { recursive: true });
    symlinkSync(join(repo, '.vscode'), join(repo, 'innocent'));
    symlinkSync(join(home, 'rules'), join(repo, 'rules-link'));
    const paths = [
      join(repo, '.vscode', 'settings.json'),
      join(repo, 'sub', '.vscode', 'tasks.json'),
      join(repo, '.threadline', 'x.json'),
      join(repo, 'innocent', 'settings.json'),
      join(repo, 'rules-link', 'default.rules'),
      join(home, 'config.toml'),
      join(repo, 'src', 'a.ts'),
      join(repo, 'vscode', 'settings.json'),
      join(repo, '.vscodeignore'),
    ];
    assert.deepEqual(await protectedPaths(paths, home), paths.slice(0, 6));
  });
});
