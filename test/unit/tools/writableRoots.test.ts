import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathsOutsideWritableRoots } from '../../../server/tools/applyPatch/writableRoots';
import { tempDir } from '../../helpers/serverProcess';

describe('apply_patch writable roots', () => {
  let root: string;
  let elsewhere: string;
  beforeEach(() => {
    root = tempDir('threadline-root-');
    elsewhere = tempDir('threadline-elsewhere-');
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  const workspace = { type: 'workspaceWrite' as const, excludeSlashTmp: true, excludeTmpdirEnvVar: true };

  it('allows the cwd and listed roots, but not .git inside them, nor .. out of them', async () => {
    const listed = join(elsewhere, 'extra');
    const paths = [
      join(root, 'a/b.txt'),
      join(listed, 'c.txt'),
      join(root, '.git/config'),
      join(root, '../x'),
    ];
    const outside = await pathsOutsideWritableRoots(paths, { ...workspace, writableRoots: [listed] }, root);
    assert.deepEqual(outside, [join(root, '.git/config'), join(root, '../x')]);
  });

  it('follows symlinks: a link inside a root that points outside does not make its target writable', async () => {
    mkdirSync(join(elsewhere, 'target'));
    symlinkSync(join(elsewhere, 'target'), join(root, 'link'));
    const path = join(root, 'link', 'new/file.txt');
    assert.deepEqual(await pathsOutsideWritableRoots([path], workspace, root), [path]);
  });

  it('allows /tmp unless excluded', async () => {
    const inTmp = join(elsewhere, 'f.txt');
    assert.deepEqual(await pathsOutsideWritableRoots([inTmp], { type: 'workspaceWrite' }, root), []);
    assert.deepEqual(await pathsOutsideWritableRoots([inTmp], workspace, root), [inTmp]);
  });

  it('allows nothing read-only and everything with full access', async () => {
    const path = join(root, 'f.txt');
    assert.deepEqual(await pathsOutsideWritableRoots([path], { type: 'readOnly' }, root), [path]);
    assert.deepEqual(await pathsOutsideWritableRoots([path], { type: 'dangerFullAccess' }, root), []);
  });
});
