// Which patch targets would land in a git directory (HEAD, objects and refs in one folder), on a
// real temp tree: one that exists, one the patch makes, and ordinary folders that only look alike.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitDirectoryTargets } from '../../../../server/tools/applyPatch/gitDirectories';
import { tempDir } from '../../../support/serverProcess';

describe('patch targets in a git directory', () => {
  it('finds writes into an existing one, into one the patch makes, in any case, and nothing else', async () => {
    const root = realpathSync(tempDir('threadline-gitdirs-'));
    execFileSync('git', ['init', '-q', '--bare', join(root, 'fixtures', 'repo.git')]);
    mkdirSync(join(root, 'docs', 'refs'), { recursive: true });
    mkdirSync(join(root, 'half', 'objects'), { recursive: true });
    mkdirSync(join(root, 'half', 'refs'));
    writeFileSync(join(root, 'docs', 'HEAD'), 'a file that happens to be called HEAD\n');
    const at = (...paths: string[]) => paths.map((path) => join(root, path));
    assert.deepEqual(
      await gitDirectoryTargets(at('fixtures/repo.git/config', 'src/a.ts'), [root]),
      at('fixtures/repo.git/config'),
    );
    assert.deepEqual(
      await gitDirectoryTargets(at('half/Head', 'half/config'), [root]),
      at('half/Head', 'half/config'),
    );
    const made = at('new/HEAD', 'new/objects/x', 'new/REFS/heads/main', 'new/config');
    assert.deepEqual(await gitDirectoryTargets(made, [root]), made);
    const ordinary = at('docs/HEAD', 'docs/refs/a.md', 'docs/objects.md', 'other/objects/readme.md');
    assert.deepEqual(await gitDirectoryTargets(ordinary, [root]), []);
  });
});
