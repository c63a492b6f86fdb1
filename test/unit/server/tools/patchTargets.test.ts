// apply_patch against links and modes in a real temp folder: writes land on the real target (the
// link stays a link), modes survive the temp-and-rename write, nothing temporary is left behind,
// one file under two names is refused, and a link loop is an error the model can read.
import assert from 'node:assert/strict';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { realTarget } from '../../../../server/sandbox/realTarget';
import { commitWrites, PatchWriteError } from '../../../../server/tools/applyPatch/commitWrites';
import { parsePatch } from '../../../../server/tools/applyPatch/parsePatch';
import { planPatch, PatchPlanError } from '../../../../server/tools/applyPatch/planPatch';
import { tempDir } from '../../../support/serverProcess';

const wrap = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('apply_patch targets', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(tempDir('threadline-targets-'));
  });

  const plan = (...body: string[]) => planPatch(parsePatch(wrap(...body)), dir);

  it('resolves every component, following dangling links and links inside links', async () => {
    mkdirSync(join(dir, 'real'));
    symlinkSync('real', join(dir, 'a'));
    symlinkSync(join(dir, 'a'), join(dir, 'b'));
    symlinkSync('/nowhere/at/all', join(dir, 'dangling'));
    assert.equal(await realTarget(join(dir, 'b/x/y.txt')), join(dir, 'real/x/y.txt'));
    assert.equal(await realTarget(join(dir, 'dangling')), '/nowhere/at/all');
    assert.equal(await realTarget(join(dir, 'b/../real')), join(dir, 'real'));
    symlinkSync('loop2', join(dir, 'loop1'));
    symlinkSync('loop1', join(dir, 'loop2'));
    await assert.rejects(plan('*** Add File: loop1', '+x'), /loop1: too many symbolic links/);
  });

  it('writes through a link to its target, keeps the link, the mode and no temporary file', async () => {
    writeFileSync(join(dir, 'script.sh'), '#!/bin/sh\necho old\n');
    chmodSync(join(dir, 'script.sh'), 0o751);
    symlinkSync('script.sh', join(dir, 'run'));
    const planned = await plan('*** Update File: run', '@@', '-echo old', '+echo new');
    assert.equal(planned.writes[0]!.path, join(dir, 'run'));
    assert.equal(planned.writes[0]!.target, join(dir, 'script.sh'));
    await commitWrites(planned.writes);
    assert.equal(readFileSync(join(dir, 'script.sh'), 'utf8'), '#!/bin/sh\necho new\n');
    assert.ok(lstatSync(join(dir, 'run')).isSymbolicLink());
    assert.equal(readlinkSync(join(dir, 'run')), 'script.sh');
    assert.equal(statSync(join(dir, 'script.sh')).mode & 0o7777, 0o751);
    assert.deepEqual(readdirSync(dir).sort(), ['run', 'script.sh']);
  });

  it('refuses one file under two names, which would be planned twice from the same old bytes', async () => {
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    symlinkSync('a.txt', join(dir, 'alias.txt'));
    await assert.rejects(
      plan('*** Update File: a.txt', '@@', '-a', '+b', '*** Update File: alias.txt', '@@', '-a', '+c'),
      (e: Error) => e instanceof PatchPlanError && /a\.txt and alias\.txt are the same file/.test(e.message),
    );
  });

  it('refuses to delete or move a link, which would remove the file it points to', async () => {
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    symlinkSync('a.txt', join(dir, 'link'));
    await assert.rejects(plan('*** Delete File: link'), /cannot delete link: it is a symbolic link/);
    await assert.rejects(
      plan('*** Update File: link', '*** Move to: moved.txt', '@@', '-a', '+b'),
      /cannot move link: it is a symbolic link/,
    );
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'a\n');
  });

  it('refuses to write when the target became a link after the patch was planned', async () => {
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    writeFileSync(join(dir, 'secret.txt'), 'secret\n');
    const planned = await plan('*** Update File: a.txt', '@@', '-a', '+b');
    rmSync(join(dir, 'a.txt'));
    symlinkSync(join(dir, 'secret.txt'), join(dir, 'a.txt'));
    await assert.rejects(commitWrites(planned.writes), PatchWriteError);
    assert.equal(readFileSync(join(dir, 'secret.txt'), 'utf8'), 'secret\n');
  });

  it('rolls back only what it created: a folder that already existed stays, with its other files', async () => {
    mkdirSync(join(dir, 'shared'));
    writeFileSync(join(dir, 'shared', 'theirs.txt'), 'theirs\n');
    writeFileSync(join(dir, 'keep.txt'), 'original\n');
    const planned = await plan(
      '*** Update File: keep.txt',
      '@@',
      '-original',
      '+modified',
      '*** Add File: shared/new/mine.txt',
      '+mine',
      '*** Add File: shared/new/mine.txt/under-a-file.txt',
      '+fails',
    );
    await assert.rejects(commitWrites(planned.writes), /ENOTDIR.*no file was changed/);
    assert.equal(readFileSync(join(dir, 'keep.txt'), 'utf8'), 'original\n');
    assert.deepEqual(readdirSync(join(dir, 'shared')), ['theirs.txt']);
    assert.deepEqual(readdirSync(dir).sort(), ['keep.txt', 'shared']);
  });
});
