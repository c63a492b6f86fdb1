// A macOS volume may ignore case: then `.GIT/hooks` and `~/.THREADLINE` are the protected folders
// themselves. Whether a root's volume ignores case is probed, not assumed: the probe looks the root
// up with a name's case flipped. Here the volume is a stand-in that answers every spelling with the
// same file, and the real temp folder (case-sensitive on Linux) is the control.
import { strict as assert } from 'node:assert';
import { rulesForRoots, volumeIgnoresCase, type StatProbe } from '../../../../server/fs/pathRules';
import { isProtected } from '../../../../server/sandbox/protectedPaths';
import { tempDir } from '../../../support/tempDirs';

/** A volume that ignores case: every spelling of a path is one file. */
const caseInsensitiveVolume: StatProbe = (path) =>
  Promise.resolve({ dev: 1, ino: path.toLowerCase().length });
/** A volume that keeps case: only the spelling that exists answers. */
const caseSensitiveVolume: StatProbe = (path) =>
  Promise.resolve(path === path.toLowerCase() ? { dev: 1, ino: path.length } : null);

describe('case-insensitive volumes', function () {
  if (process.platform === 'win32') return; // Windows disks are taken as case-insensitive without a probe.

  const root = '/Users/me/repo';
  const set = { paths: [`${root}/.git`], hidden: ['/Users/me/.threadline'] };

  it('protects .GIT and the hidden home in another case once the probe finds the volume ignores case', async () => {
    const rules = await rulesForRoots([root], caseInsensitiveVolume);
    assert.equal(rules.caseInsensitive, true);
    assert.ok(isProtected(`${root}/.GIT/hooks/pre-commit`, [root], set, rules));
    assert.ok(isProtected('/Users/me/.THREADLINE/config.toml', [root], set, rules));
    assert.ok(isProtected('/users/ME/Repo/.git/config', [root], set, rules));
    assert.ok(!isProtected(`${root}/src/git.ts`, [root], set, rules));
  });

  it('keeps exact case on a volume the probe finds case-sensitive', async () => {
    const rules = await rulesForRoots([root], caseSensitiveVolume);
    assert.equal(rules.caseInsensitive, false);
    // `.GIT` is still refused by name everywhere; a differently spelt folder is another folder.
    assert.ok(isProtected(`${root}/.GIT/hooks/pre-commit`, [root], set, rules));
    assert.ok(!isProtected('/Users/me/.THREADLINE/config.toml', [root], set, rules));
  });

  it('finds this machine’s temp folder case-sensitive, with the real probe', async function () {
    if (process.platform === 'darwin') this.skip(); // APFS is case-insensitive by default.
    assert.equal(await volumeIgnoresCase(tempDir('threadline-case-')), false);
  });
});
