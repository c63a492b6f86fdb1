// A rename over a file someone briefly holds (Windows: antivirus, indexer, an editor's watcher) is
// tried again for a moment; any other failure, or a lock that outlasts the waits, is reported.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { renameRetrying } from '../../../../server/fs/renameRetrying';
import { tempDir } from '../../../support/tempDirs';

/** A real rename that fails with `code` the first `times` calls, as a held file does. */
function heldFor(times: number, code: string) {
  let calls = 0;
  const rename = async (from: string, to: string) => {
    if (calls++ < times) throw Object.assign(new Error(`${code}: held`), { code });
    await fs.rename(from, to);
  };
  return { rename, calls: () => calls };
}

describe('renameRetrying', () => {
  function files() {
    const dir = tempDir('threadline-rename-');
    writeFileSync(join(dir, 'new'), 'new');
    writeFileSync(join(dir, 'target'), 'old');
    return { from: join(dir, 'new'), to: join(dir, 'target') };
  }

  for (const code of ['EPERM', 'EBUSY', 'EACCES']) {
    it(`lands once a file held with ${code} is let go`, async () => {
      const { from, to } = files();
      const held = heldFor(2, code);
      await renameRetrying(from, to, held.rename, [1, 1, 1]);
      assert.equal(readFileSync(to, 'utf8'), 'new');
      assert.equal(held.calls(), 3);
    });
  }

  it('gives up after the last wait, leaving the target as it was', async () => {
    const { from, to } = files();
    const held = heldFor(10, 'EBUSY');
    await assert.rejects(renameRetrying(from, to, held.rename, [1, 1]), /EBUSY/);
    assert.equal(held.calls(), 3);
    assert.equal(readFileSync(to, 'utf8'), 'old');
  });

  it('does not retry a failure no lock explains', async () => {
    const { to } = files();
    let calls = 0;
    const rename = (from: string, target: string) => (calls++, fs.rename(from, target));
    await assert.rejects(renameRetrying(join(to, '..', 'missing'), to, rename, [1, 1]), { code: 'ENOENT' });
    assert.equal(calls, 1);
  });
});
