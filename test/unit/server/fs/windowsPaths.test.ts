// Windows path semantics in every containment check, checked on any machine with `path.win32`:
// drive letters (`C:` is `c:`), UNC shares, `..`, either slash, and links. realTarget walks real
// files and real symbolic links in a temp folder standing for the Windows disk: `C:\repo` is
// <disk>/c/repo and `\\server\share` is <disk>/unc/server/share, names kept in lower case because
// a Windows disk ignores case. A link's text is the Windows path it holds.
import { strict as assert } from 'node:assert';
import { promises as fs, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, win32 } from 'node:path';
import { containmentProblem, type Boundary } from '../../../../server/fs/containedPath';
import { isWithin, relativeParts, WINDOWS_RULES } from '../../../../server/fs/pathRules';
import { isProtected } from '../../../../server/sandbox/protectedPaths';
import { realTarget, type LinkReader } from '../../../../server/sandbox/realTarget';
import { tempDir } from '../../../support/tempDirs';

/** Where a Windows path lives on the stand-in disk. */
function onDisk(disk: string, path: string): string {
  const { root } = win32.parse(path);
  const names = path.slice(root.length).split(/[\\/]/).filter(Boolean);
  const unc = /^[\\/]{2}([^\\/]+)[\\/]([^\\/]+)/.exec(root);
  const base = unc ? ['unc', unc[1]!, unc[2]!] : [root[0]!];
  return join(disk, ...[...base, ...names].map((name) => name.toLowerCase()));
}

function windowsDisk(): { disk: string; links: LinkReader } {
  const disk = tempDir('threadline-windisk-');
  return {
    disk,
    links: {
      lstat: (path) => fs.lstat(onDisk(disk, path)).catch(() => null),
      readlink: (path) => fs.readlink(onDisk(disk, path)),
    },
  };
}

describe('Windows paths', () => {
  describe('isWithin', () => {
    const within = (parent: string, inside: string) => isWithin(parent, inside, WINDOWS_RULES);

    it('takes a drive letter in either case and either slash', () => {
      assert.ok(within('C:\\repo', 'C:\\repo\\a.txt'));
      assert.ok(within('C:\\repo', 'c:\\Repo\\src\\a.txt'));
      assert.ok(within('c:/repo', 'C:\\REPO/src/a.txt'));
      assert.ok(within('C:\\repo', 'C:\\repo'));
    });

    it('keeps another drive, a sibling and `..` out', () => {
      assert.ok(!within('C:\\repo', 'D:\\repo\\a.txt'));
      assert.ok(!within('C:\\repo', 'C:\\repository\\a.txt'));
      assert.ok(!within('C:\\repo', 'C:\\repo\\..\\secrets.txt'));
      assert.ok(!within('C:\\repo', 'C:\\'));
    });

    it('takes UNC shares as roots of their own', () => {
      assert.ok(within('\\\\server\\share\\repo', '\\\\SERVER\\share\\repo\\a.txt'));
      assert.ok(within('\\\\server\\share\\repo', '//server/share/repo/x/y'));
      assert.ok(!within('\\\\server\\share\\repo', '\\\\server\\other\\repo\\a.txt'));
      assert.ok(!within('\\\\server\\share\\repo', '\\\\server\\share\\repo\\..\\..\\other\\x'));
      assert.ok(!within('\\\\server\\share\\repo', 'C:\\repo\\a.txt'));
    });

    it('names the way down, and none for a path outside', () => {
      assert.deepEqual(relativeParts('C:\\repo', 'c:/repo/src\\a.txt', WINDOWS_RULES), ['src', 'a.txt']);
      assert.equal(relativeParts('C:\\repo', 'D:\\repo', WINDOWS_RULES), null);
    });
  });

  describe('realTarget', () => {
    it('keeps a drive path as it is, not under a second drive (the C:\\C:\\ bug)', async () => {
      const { disk, links } = windowsDisk();
      mkdirSync(onDisk(disk, 'C:\\repo'), { recursive: true });
      writeFileSync(onDisk(disk, 'C:\\repo\\a.txt'), 'a');
      assert.equal(await realTarget('C:\\repo\\a.txt', WINDOWS_RULES, links), 'C:\\repo\\a.txt');
      assert.equal(await realTarget('C:/repo/new/b.txt', WINDOWS_RULES, links), 'C:\\repo\\new\\b.txt');
      assert.equal(await realTarget('C:\\repo\\..\\repo\\.\\a.txt', WINDOWS_RULES, links), 'C:\\repo\\a.txt');
    });

    it('follows links to another drive, a UNC share and a relative target', async () => {
      const { disk, links } = windowsDisk();
      mkdirSync(onDisk(disk, 'C:\\repo'), { recursive: true });
      mkdirSync(onDisk(disk, '\\\\server\\share\\data'), { recursive: true });
      symlinkSync('D:\\elsewhere\\notes.txt', onDisk(disk, 'C:\\repo\\notes.txt'));
      symlinkSync('\\\\server\\share\\data', onDisk(disk, 'C:\\repo\\shared'));
      symlinkSync('..\\outside', onDisk(disk, 'C:\\repo\\up'));
      assert.equal(await realTarget('C:\\repo\\notes.txt', WINDOWS_RULES, links), 'D:\\elsewhere\\notes.txt');
      assert.equal(
        await realTarget('c:\\repo\\shared\\x.txt', WINDOWS_RULES, links),
        '\\\\server\\share\\data\\x.txt',
      );
      assert.equal(await realTarget('C:\\repo\\up\\x.txt', WINDOWS_RULES, links), 'C:\\outside\\x.txt');
    });

    it('cannot climb above a drive or a share', async () => {
      const { links } = windowsDisk();
      assert.equal(await realTarget('C:\\..\\..\\x.txt', WINDOWS_RULES, links), 'C:\\x.txt');
      assert.equal(
        await realTarget('\\\\server\\share\\..\\x.txt', WINDOWS_RULES, links),
        '\\\\server\\share\\x.txt',
      );
    });
  });

  describe('containment of a repository write', () => {
    const boundary: Boundary = {
      root: 'C:\\Users\\me\\repo',
      rootName: 'the repository',
      userConfig: ['C:\\Users\\me\\.threadline'],
      userHome: 'C:\\Users\\me',
    };
    const problem = (real: string, realUserHome: string | null = 'C:\\Users\\me') =>
      containmentProblem(
        {
          path: real,
          real,
          realRoot: 'C:\\Users\\me\\repo',
          realUserHome,
          realUserConfig: ['C:\\Users\\me\\.threadline'],
        },
        boundary,
        WINDOWS_RULES,
      );

    it('lets a write inside the repository through, whatever the case of its drive', () => {
      assert.equal(problem('c:\\users\\ME\\repo\\src\\a.ts'), null);
    });

    it('refuses another drive, a share, `..` out and the user configuration', () => {
      assert.match(problem('D:\\Users\\me\\repo\\a.ts')!, /outside the repository/);
      assert.match(problem('\\\\server\\share\\a.ts')!, /outside the repository/);
      assert.match(problem('C:\\Users\\me\\repo\\..\\a.ts')!, /outside the repository/);
      assert.match(
        containmentProblem(
          {
            path: 'x',
            real: 'C:\\Users\\me\\repo\\.threadline-link\\config.toml',
            realRoot: 'C:\\Users\\me\\repo',
            realUserHome: null,
            realUserConfig: ['c:\\users\\me\\REPO\\.threadline-link'],
          },
          boundary,
          WINDOWS_RULES,
        )!,
        /inside your own configuration/,
      );
    });

    it('refuses a repository that is the home folder, written in another case', () => {
      assert.match(problem('C:\\Users\\me\\repo\\a', 'c:\\users\\me\\repo')!, /your home folder/);
    });
  });

  describe('protected paths', () => {
    const roots = ['C:\\repo'];
    const set = { paths: ['C:\\repo\\.git'], hidden: ['C:\\Users\\me\\.threadline'] };
    const guarded = (target: string) => isProtected(target, roots, set, WINDOWS_RULES);

    it('protects .git and the hidden home in any case and either slash', () => {
      assert.ok(guarded('c:\\REPO\\.Git\\hooks\\pre-commit'));
      assert.ok(guarded('C:/repo/.git/config'));
      assert.ok(guarded('C:\\repo\\sub\\.GIT\\HEAD'));
      assert.ok(guarded('C:\\repo\\.VSCode\\settings.json'));
      assert.ok(guarded('c:\\users\\ME\\.THREADLINE\\config.toml'));
    });

    it('leaves ordinary files, and the same names on another drive, to the other checks', () => {
      assert.ok(!guarded('C:\\repo\\src\\git.ts'));
      assert.ok(!guarded('C:\\repo\\.github\\workflows\\ci.yml'));
      assert.ok(!guarded('D:\\repo\\.git\\config'));
    });
  });
});
