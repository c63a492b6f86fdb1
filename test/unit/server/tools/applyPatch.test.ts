// The patch applier against real files in a temp directory: a corpus of the patches models write,
// the ones that go wrong, and the guarantee that a failing patch leaves every file as it was.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitWrites, PatchWriteError } from '../../../../server/tools/applyPatch/commitWrites';
import { parsePatch } from '../../../../server/tools/applyPatch/parsePatch';
import { planPatch, PatchPlanError, type PatchPlan } from '../../../../server/tools/applyPatch/planPatch';
import { ChunkMismatchError } from '../../../../server/tools/applyPatch/applyChunks';
import { tempDir } from '../../../support/serverProcess';

const wrap = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('apply_patch applier', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('threadline-patch-');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text?: string | Buffer): string => {
    const path = join(dir, name);
    if (text !== undefined) {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, text);
    }
    return path;
  };
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');

  async function apply(...body: string[]): Promise<PatchPlan> {
    const plan = await planPatch(parsePatch(wrap(...body)), dir);
    await commitWrites(plan.writes);
    return plan;
  }

  async function rejects(error: new (message: string) => Error, pattern: RegExp, ...body: string[]) {
    const before = snapshot();
    await assert.rejects(apply(...body), (e: Error) => e instanceof error && pattern.test(e.message));
    assert.deepEqual(snapshot(), before, 'a failed patch leaves every file as it was');
  }

  function snapshot(): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (sub: string) => {
      for (const name of readdirSync(join(dir, sub), { withFileTypes: true })) {
        const rel = join(sub, name.name);
        if (name.isDirectory()) walk(rel);
        else out[rel] = readFileSync(join(dir, rel), 'latin1');
      }
    };
    walk('');
    return out;
  }

  it('adds a file in new directories and reports its content as the diff', async () => {
    const plan = await apply('*** Add File: a/b/new.txt', '+hello', '+world');
    assert.equal(read('a/b/new.txt'), 'hello\nworld\n');
    assert.deepEqual(plan.changes, [
      { path: join(dir, 'a/b/new.txt'), kind: { type: 'add' }, diff: 'hello\nworld\n' },
    ]);
  });

  it('deletes a file and reports its old content', async () => {
    file('gone.txt', 'bye\n');
    const plan = await apply('*** Delete File: gone.txt');
    assert.equal(existsSync(file('gone.txt')), false);
    assert.deepEqual(plan.changes, [{ path: file('gone.txt'), kind: { type: 'delete' }, diff: 'bye\n' }]);
  });

  it('updates several places in a file and reports bare unified hunks', async () => {
    file('m.txt', 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n');
    const plan = await apply('*** Update File: m.txt', '@@', ' a', '-b', '+B', '@@', ' i', '-j', '+J');
    assert.equal(read('m.txt'), 'a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\n');
    assert.deepEqual(plan.changes[0].kind, { type: 'update', move_path: null });
    assert.equal(
      plan.changes[0].diff,
      '@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -7,4 +7,4 @@\n g\n h\n i\n-j\n+J\n',
    );
  });

  it('moves a file into a new directory with its changes', async () => {
    file('old/name.txt', 'one\ntwo\n');
    const plan = await apply(
      '*** Update File: old/name.txt',
      '*** Move to: renamed/dir/name.txt',
      '@@',
      '-two',
      '+2',
    );
    assert.equal(existsSync(file('old/name.txt')), false);
    assert.equal(read('renamed/dir/name.txt'), 'one\n2\n');
    assert.deepEqual(plan.changes[0], {
      path: file('old/name.txt'),
      kind: { type: 'update', move_path: file('renamed/dir/name.txt') },
      diff: '@@ -1,2 +1,2 @@\n one\n-two\n+2\n',
    });
  });

  it('renames without changes', async () => {
    file('a.txt', 'same\n');
    await apply('*** Update File: a.txt', '*** Move to: b.txt');
    assert.equal(existsSync(file('a.txt')), false);
    assert.equal(read('b.txt'), 'same\n');
  });

  it('keeps CRLF line breaks, a byte-order mark and a missing final newline', async () => {
    file('win.txt', 'first\r\nsecond\r\nthird\r\n');
    file('bom.txt', '\uFEFFkeep\nme\n');
    file('nonl.txt', 'x\ny\nlast');
    await apply(
      '*** Update File: win.txt',
      '@@',
      ' first',
      '-second',
      '+2nd',
      '*** Update File: bom.txt',
      '@@',
      '-keep',
      '+kept',
      '*** Update File: nonl.txt',
      '@@',
      '-y',
      '+Y',
      ' last',
      '+after',
    );
    assert.equal(read('win.txt'), 'first\r\n2nd\r\nthird\r\n');
    assert.equal(read('bom.txt'), '\uFEFFkept\nme\n');
    assert.equal(read('nonl.txt'), 'x\nY\nlast\nafter');
  });

  it('handles unicode text and matches typographic punctuation written as ASCII', async () => {
    file('u.py', 'naïve = "日本語" # 🚀\nimport asyncio  # local import \u2013 avoids top\u2011level dep\n');
    await apply(
      '*** Update File: u.py',
      '@@',
      '-naïve = "日本語" # 🚀',
      '+naïve = "中文" # 🛸',
      '-import asyncio  # local import - avoids top-level dep',
      '+import asyncio',
    );
    assert.equal(read('u.py'), 'naïve = "中文" # 🛸\nimport asyncio\n');
  });

  it('finds context that drifted in trailing and surrounding whitespace', async () => {
    file('ws.py', 'def f():   \n\tif x:\t\n\t\treturn 1\n');
    await apply(
      '*** Update File: ws.py',
      '@@',
      ' def f():',
      '     if x:',
      '-        return 1',
      '+        return 2',
    );
    // Lines the patch replaces take the patch's text; untouched context keeps the file's.
    assert.equal(read('ws.py'), 'def f():   \n\tif x:\t\n        return 2\n');
  });

  it('uses @@ context lines to pick among repeated code, and the end-of-file marker', async () => {
    file('r.py', 'class A:\n    x = 1\nclass B:\n    x = 1\nx = 1\n');
    await apply('*** Update File: r.py', '@@ class B:', '-    x = 1', '+    x = 2');
    assert.equal(read('r.py'), 'class A:\n    x = 1\nclass B:\n    x = 2\nx = 1\n');
    file('t.txt', 'x\ny\nx\n');
    await apply('*** Update File: t.txt', '@@', '-x', '+z', '*** End of File');
    assert.equal(read('t.txt'), 'x\ny\nz\n');
  });

  it('inserts pure additions after their context line, or at the end without one', async () => {
    file('p.txt', 'head\nmiddle\ntail\n');
    await apply('*** Update File: p.txt', '@@ head', '+after head', '@@', '+at end');
    assert.equal(read('p.txt'), 'head\nafter head\nmiddle\ntail\nat end\n');
  });

  it('applies later sections over earlier ones, and an add over an existing file', async () => {
    file('dup.txt', 'old\n');
    await apply('*** Add File: dup.txt', '+new', '*** Update File: dup.txt', '@@', '-new', '+newer');
    assert.equal(read('dup.txt'), 'newer\n');
  });

  it('accepts absolute paths', async () => {
    const target = file('abs.txt', 'a\n');
    await apply(`*** Update File: ${target}`, '@@', '-a', '+b');
    assert.equal(read('abs.txt'), 'b\n');
  });

  it('rejects a chunk that does not fit, saying what it looked for, and writes nothing', async () => {
    file('ok.txt', 'fine\n');
    file('code.ts', 'const a = 1;\nconst b = 2;\n');
    await rejects(
      ChunkMismatchError,
      /chunk 2 of code\.ts: these lines were not found after line 1:\n {2}const c = 3;\nRead the file again/,
      '*** Update File: ok.txt',
      '@@',
      '-fine',
      '+changed',
      '*** Update File: code.ts',
      '@@',
      '-const a = 1;',
      '+const a = 10;',
      '@@',
      '-const c = 3;',
      '+const c = 30;',
    );
    await rejects(
      ChunkMismatchError,
      /the context line 'class Missing:' was not found/,
      '*** Update File: code.ts',
      '@@ class Missing:',
      '+x',
    );
  });

  it('rejects missing files, directories, binary files and empty patches', async () => {
    file('dir/inner.txt', 'x\n');
    file('bin.dat', Buffer.from([0xff, 0xfe, 0x00, 0x81]));
    await rejects(
      PatchPlanError,
      /cannot update nope\.txt: no such file/,
      '*** Update File: nope.txt',
      '@@',
      '+x',
    );
    await rejects(PatchPlanError, /cannot delete nope\.txt: no such file/, '*** Delete File: nope.txt');
    await rejects(PatchPlanError, /dir is a directory/, '*** Delete File: dir');
    await rejects(PatchPlanError, /bin\.dat: it is not UTF-8 text/, '*** Update File: bin.dat', '@@', '+x');
    await assert.rejects(planPatch([], dir), /the patch changes no files/);
  });

  it('puts every file back when a write fails part way', async () => {
    file('keep.txt', 'original\n');
    // "x" becomes a directory for x/y.txt, so writing a file named x fails after two writes.
    await rejects(
      PatchWriteError,
      /cannot write .*\/x \(EISDIR\); no file was changed/,
      '*** Update File: keep.txt',
      '@@',
      '-original',
      '+modified',
      '*** Add File: x/y.txt',
      '+inner',
      '*** Add File: x',
      '+outer',
    );
  });
});
