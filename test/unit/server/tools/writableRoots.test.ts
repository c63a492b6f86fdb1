import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { realTarget } from '../../../../server/sandbox/realTarget';
import { uncoveredTargets } from '../../../../server/tools/applyPatch/writableRoots';
import { tempDir } from '../../../support/serverProcess';

describe('apply_patch writable roots', () => {
  let root: string;
  let elsewhere: string;
  const savedHome = process.env.THREADLINE_HOME;
  beforeEach(() => {
    root = realpathSync(tempDir('threadline-root-'));
    elsewhere = realpathSync(tempDir('threadline-elsewhere-'));
    process.env.THREADLINE_HOME = join(elsewhere, 'home');
    mkdirSync(process.env.THREADLINE_HOME);
  });
  afterEach(() => {
    if (savedHome === undefined) delete process.env.THREADLINE_HOME;
    else process.env.THREADLINE_HOME = savedHome;
  });

  const workspace = { type: 'workspaceWrite' as const, excludeSlashTmp: true, excludeTmpdirEnvVar: true };
  const check = async (paths: string[], policy = workspace as Parameters<typeof uncoveredTargets>[1]) =>
    uncoveredTargets(await Promise.all(paths.map((path) => realTarget(path))), policy, root);

  it('allows the cwd and listed roots, but not .git or .threadline inside them, nor .. out of them', async () => {
    const listed = join(elsewhere, 'extra');
    mkdirSync(listed);
    mkdirSync(join(root, '.git'));
    const result = await uncoveredTargets(
      [
        join(root, 'a/b.txt'),
        join(listed, 'c.txt'),
        join(root, '.git/config'),
        join(root, 'sub/.git/hooks/pre-commit'),
        join(root, '.threadline/x'),
        join(root, '../x'),
      ],
      { ...workspace, writableRoots: [listed] },
      root,
    );
    assert.deepEqual(result, {
      outside: [join(root, '../x')],
      protectedTargets: [
        join(root, '.git/config'),
        join(root, 'sub/.git/hooks/pre-commit'),
        join(root, '.threadline/x'),
      ],
    });
  });

  it('follows symlinks, dangling ones too: a link inside a root does not make its target writable', async () => {
    mkdirSync(join(elsewhere, 'target'));
    symlinkSync(join(elsewhere, 'target'), join(root, 'folder'));
    symlinkSync(join(elsewhere, 'missing.txt'), join(root, 'notes.txt'));
    symlinkSync('.git', join(root, 'innocent'));
    mkdirSync(join(root, '.git'));
    assert.deepEqual(await check([join(root, 'folder/new/file.txt'), join(root, 'notes.txt')]), {
      outside: [join(elsewhere, 'target/new/file.txt'), join(elsewhere, 'missing.txt')],
      protectedTargets: [],
    });
    assert.deepEqual(await check([join(root, 'innocent/hooks/post-checkout')]), {
      outside: [],
      protectedTargets: [join(root, '.git/hooks/post-checkout')],
    });
  });

  it("protects the folder a .git file points at, and Threadline's home inside a root", async () => {
    const gitdir = join(root, 'elsewhere-git');
    mkdirSync(gitdir);
    mkdirSync(join(root, 'wt'));
    writeFileSync(join(root, 'wt', '.git'), `gitdir: ../elsewhere-git\n`);
    const home = join(root, 'home');
    mkdirSync(home);
    process.env.THREADLINE_HOME = home;
    assert.deepEqual(await check([join(gitdir, 'hooks/pre-commit'), join(home, 'rules/default.rules')]), {
      outside: [],
      protectedTargets: [join(gitdir, 'hooks/pre-commit'), join(home, 'rules/default.rules')],
    });
  });

  it('never counts /tmp as a root (commands get a private one), but $TMPDIR is unless excluded', async () => {
    const inTmp = '/tmp/threadline-patch-probe.txt';
    assert.deepEqual((await check([inTmp], { type: 'workspaceWrite' })).outside, [inTmp]);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = elsewhere;
    try {
      const file = join(elsewhere, 'f.txt');
      assert.deepEqual((await check([file], { type: 'workspaceWrite' })).outside, []);
      assert.deepEqual((await check([file], workspace)).outside, [file]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('allows nothing read-only and everything with full access', async () => {
    const path = join(root, 'f.txt');
    assert.deepEqual((await check([path], { type: 'readOnly' })).outside, [path]);
    assert.deepEqual(await check([path], { type: 'dangerFullAccess' }), {
      outside: [],
      protectedTargets: [],
    });
  });
});
