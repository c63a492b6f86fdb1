// The user's edits to a planned patch (acceptWithEdits), against real files in a temp directory:
// what is written and what the item's changes say, for the cases the server tests do not reach.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitWrites } from '../../../../server/tools/applyPatch/commitWrites';
import { parsePatch } from '../../../../server/tools/applyPatch/parsePatch';
import { planPatch } from '../../../../server/tools/applyPatch/planPatch';
import { withUserEdits } from '../../../../server/tools/applyPatch/userEdits';
import { tempDir } from '../../../support/serverProcess';

const wrap = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('apply_patch with the user edits', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('threadline-edits-');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const plan = (...body: string[]) => planPatch(parsePatch(wrap(...body)), dir);

  it('writes nothing when the user put every file back as it was', async () => {
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n');
    const planned = await plan('*** Update File: a.txt', '@@', ' one', '-two', '+three');
    const { plan: edited, edited: paths } = withUserEdits(planned, [
      { path: join(dir, 'a.txt'), content: 'one\ntwo\n' },
    ]);
    assert.deepEqual(paths, [join(dir, 'a.txt')]);
    assert.deepEqual(edited, { changes: [], writes: [] });
  });

  it('takes an edited new file as the added content', async () => {
    const planned = await plan('*** Add File: new.txt', '+proposed');
    const { plan: edited } = withUserEdits(planned, [
      { path: join(dir, 'new.txt'), content: 'mine\nall mine\n' },
    ]);
    assert.deepEqual(edited.changes, [
      { path: join(dir, 'new.txt'), kind: { type: 'add' }, diff: 'mine\nall mine\n' },
    ]);
    await commitWrites(edited.writes);
    assert.equal(readFileSync(join(dir, 'new.txt'), 'utf8'), 'mine\nall mine\n');
  });

  it("keeps the file's byte-order mark and CRLF breaks, and a missing final newline as the user left it", async () => {
    writeFileSync(join(dir, 'w.txt'), '\uFEFFa\r\nb\r\n');
    const planned = await plan('*** Update File: w.txt', '@@', ' a', '-b', '+c');
    const { plan: edited } = withUserEdits(planned, [{ path: join(dir, 'w.txt'), content: 'a\nuser' }]);
    await commitWrites(edited.writes);
    assert.equal(readFileSync(join(dir, 'w.txt'), 'utf8'), '\uFEFFa\r\nuser');
    assert.equal(edited.changes[0]!.diff, '@@ -1,2 +1,2 @@\n a\n-b\n+user\n\\ No newline at end of file\n');
  });

  it('leaves a file not named by any edit as proposed', async () => {
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    const planned = await plan(
      '*** Update File: a.txt',
      '@@',
      '-a',
      '+A',
      '*** Update File: b.txt',
      '@@',
      '-b',
      '+B',
    );
    const { plan: edited } = withUserEdits(planned, [{ path: join(dir, 'b.txt'), content: 'mine\n' }]);
    assert.deepEqual(edited.changes[0], planned.changes[0]);
    await commitWrites(edited.writes);
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'A\n');
    assert.equal(readFileSync(join(dir, 'b.txt'), 'utf8'), 'mine\n');
  });
});
