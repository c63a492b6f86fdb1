// How patch summaries, undo messages and diffs name a file: relative to the working directory with
// `/` on every platform (what the model wrote in its patch and what git diffs use), absolute outside it.
import assert from 'node:assert/strict';
import { posix, win32 } from 'node:path';
import { shownPath } from '../../../../server/tools/applyPatch/planPatch';

describe('shownPath', () => {
  it('names a file inside the working directory relative to it, with forward slashes on Windows', () => {
    assert.equal(shownPath('C:\\repo', 'C:\\repo\\src\\hello.txt', win32), 'src/hello.txt');
    assert.equal(shownPath('c:\\repo', 'C:\\repo\\a.txt', win32), 'a.txt');
    assert.equal(shownPath('\\\\server\\share\\repo', '\\\\server\\share\\repo\\d\\e.md', win32), 'd/e.md');
    assert.equal(shownPath('/repo', '/repo/src/hello.txt', posix), 'src/hello.txt');
  });

  it('keeps a file outside it, on another drive, or the directory itself as it is', () => {
    assert.equal(shownPath('C:\\repo', 'C:\\other\\a.txt', win32), 'C:\\other\\a.txt');
    assert.equal(shownPath('C:\\repo', 'D:\\repo\\a.txt', win32), 'D:\\repo\\a.txt');
    assert.equal(shownPath('C:\\repo', 'C:\\repo', win32), 'C:\\repo');
    assert.equal(shownPath('/repo', '/elsewhere/a.txt', posix), '/elsewhere/a.txt');
  });
});
