// The search for protected paths in a real temp tree: nested repositories at any depth, `.git` files
// and the folders they point at, `.threadline` folders, what `.gitignore` skips, and the bounds.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { protectedPathsUnder, WALK_LIMITS } from '../../../../server/sandbox/protectedPaths';
import { tempDir } from '../../../support/serverProcess';

describe('protected paths', () => {
  let root: string;
  let elsewhere: string;
  beforeEach(() => {
    root = realpathSync(tempDir('threadline-protected-'));
    elsewhere = realpathSync(tempDir('threadline-protected-elsewhere-'));
  });

  const sorted = async () => (await protectedPathsUnder(root)).sort();

  it('finds the root repository, nested ones, .threadline folders and where .git files and links point', async () => {
    execFileSync('git', ['init', '-q', root]);
    execFileSync('git', ['init', '-q', join(root, 'a/b/c/nested')]);
    mkdirSync(join(root, 'docs/.threadline'), { recursive: true });
    mkdirSync(join(root, 'wt'));
    mkdirSync(join(elsewhere, 'gitdir'));
    mkdirSync(join(elsewhere, 'common'));
    writeFileSync(join(elsewhere, 'gitdir', 'commondir'), '../common\n');
    writeFileSync(join(root, 'wt', '.git'), `gitdir: ${join(elsewhere, 'gitdir')}\n`);
    mkdirSync(join(root, 'linked'));
    symlinkSync(join(elsewhere, 'gitdir'), join(root, 'linked', '.git'));
    assert.deepEqual(
      await sorted(),
      [
        join(root, '.git'),
        join(root, 'a/b/c/nested/.git'),
        join(root, 'docs/.threadline'),
        join(elsewhere, 'common'),
        join(elsewhere, 'gitdir'),
        join(root, 'wt/.git'),
      ].sort(),
    );
  });

  it('skips what .gitignore files ignore, at their own level, and folder links', async () => {
    writeFileSync(join(root, '.gitignore'), 'node_modules/\n/build\n');
    mkdirSync(join(root, 'pkg'));
    writeFileSync(join(root, 'pkg', '.gitignore'), 'vendor\n');
    for (const dir of ['node_modules/x', 'build/y', 'pkg/vendor/z', 'pkg/src/w', 'sub/build/v']) {
      execFileSync('git', ['init', '-q', join(root, dir)]);
    }
    symlinkSync(join(root, 'pkg'), join(root, 'pkg-link'));
    assert.deepEqual(await sorted(), [join(root, 'pkg/src/w/.git'), join(root, 'sub/build/v/.git')]);
  });

  it(`stops ${WALK_LIMITS.maxDepth} folders deep`, async () => {
    const deep = Array.from({ length: WALK_LIMITS.maxDepth + 1 }, (_, i) => `d${i}`);
    mkdirSync(join(root, ...deep, '.git'), { recursive: true });
    mkdirSync(join(root, ...deep.slice(0, -1), '.git'), { recursive: true });
    assert.deepEqual(await sorted(), [join(root, ...deep.slice(0, -1), '.git')]);
  });
});
