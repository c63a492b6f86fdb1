import assert from 'node:assert/strict';
import {
  parsePatch,
  PatchSyntaxError,
  type PatchHunk,
  type UpdateChunk,
} from '../../../../server/tools/applyPatch/parsePatch';

const wrap = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

function syntaxError(text: string): PatchSyntaxError {
  try {
    parsePatch(text);
  } catch (error) {
    assert.ok(error instanceof PatchSyntaxError, String(error));
    return error;
  }
  assert.fail('expected a syntax error');
}

describe('apply_patch parser', () => {
  it('reads add, delete and update sections with a move and context', () => {
    const hunks = parsePatch(
      wrap(
        '*** Add File: docs/new.md',
        '+# Title',
        '+',
        '+body',
        '*** Delete File: old.txt',
        '*** Update File: src/a.py',
        '*** Move to: src/b.py',
        '@@ def greet():',
        '-    print("hi")',
        '+    print("hello")',
        '     return None',
      ),
    );
    assert.deepEqual(hunks, [
      { type: 'add', path: 'docs/new.md', contents: '# Title\n\nbody\n' },
      { type: 'delete', path: 'old.txt' },
      {
        type: 'update',
        path: 'src/a.py',
        movePath: 'src/b.py',
        chunks: [
          {
            contexts: ['def greet():'],
            lines: [
              { op: '-', text: '    print("hi")' },
              { op: '+', text: '    print("hello")' },
              { op: ' ', text: '    return None' },
            ],
            endOfFile: false,
          },
        ],
      },
    ] satisfies PatchHunk[]);
  });

  it('splits chunks at each @@ and marks the end-of-file chunk', () => {
    const [hunk] = parsePatch(
      wrap('*** Update File: f', '@@', ' a', '-b', '+B', '', '@@', ' y', '+z', '*** End of File'),
    );
    assert.equal(hunk.type, 'update');
    const ops = (c: UpdateChunk) => c.lines.map((l) => l.op + l.text);
    assert.deepEqual(hunk.type === 'update' && hunk.chunks.map((c) => [ops(c), c.endOfFile]), [
      [[' a', '-b', '+B', ' '], false],
      [[' y', '+z'], true],
    ]);
  });

  it('accepts a first chunk without @@, stacked @@ contexts and git-style range headers', () => {
    const [plain, stacked, git] = parsePatch(
      wrap(
        '*** Update File: a',
        ' import os',
        '+import sys',
        '*** Update File: b',
        '@@ class Base',
        '@@     def run(self):',
        '-        pass',
        '+        return 1',
        '*** Update File: c',
        '@@ -10,3 +10,4 @@ def main():',
        ' x',
        '+y',
      ),
    );
    assert.deepEqual(plain.type === 'update' && plain.chunks[0].contexts, []);
    assert.deepEqual(stacked.type === 'update' && stacked.chunks[0].contexts, [
      'class Base',
      '    def run(self):',
    ]);
    assert.deepEqual(git.type === 'update' && git.chunks[0].contexts, []);
  });

  it('is lenient about CRLF breaks, padded markers and a heredoc around the patch', () => {
    const expected: PatchHunk[] = [{ type: 'add', path: 'x.txt', contents: 'hi\n' }];
    assert.deepEqual(
      parsePatch('*** Begin Patch\r\n*** Add File: x.txt\r\n+hi\r\n*** End Patch\r\n'),
      expected,
    );
    assert.deepEqual(
      parsePatch('  *** Begin Patch  \n  *** Add File: x.txt\n+hi\n *** End Patch \n'),
      expected,
    );
    for (const start of ["<<'EOF'", '<<EOF', '<<"EOF"', "apply_patch <<'PATCH'"]) {
      const end = start.includes('PATCH') ? 'PATCH' : 'EOF';
      assert.deepEqual(parsePatch(`${start}\n${wrap('*** Add File: x.txt', '+hi')}\n${end}\n`), expected);
    }
  });

  it('allows a rename without changes and an empty added file', () => {
    assert.deepEqual(
      parsePatch(wrap('*** Update File: a.txt', '*** Move to: b.txt', '*** Add File: empty')),
      [
        { type: 'update', path: 'a.txt', movePath: 'b.txt', chunks: [] },
        { type: 'add', path: 'empty', contents: '' },
      ],
    );
  });

  it('names the line at fault', () => {
    assert.match(syntaxError('hello').message, /first line must be '\*\*\* Begin Patch'/);
    assert.match(syntaxError('*** Begin Patch\n*** Add File: a\n+x').message, /last line must be/);
    const header = syntaxError(wrap('*** Add File: a', '+x', '*** Frobnicate File: b'));
    assert.equal(header.line, 4);
    assert.match(header.message, /not a file header/);
    assert.equal(syntaxError(wrap('*** Update File: a.txt')).line, 2);
    const stray = syntaxError(wrap('*** Update File: a', '@@', 'no sign here'));
    assert.equal(stray.line, 4);
    assert.match(stray.message, /starts with ' ' \(context\), '-' \(removed\) or '\+' \(added\)/);
    assert.equal(syntaxError(wrap('*** Update File: a', '@@', '*** End of File')).line, 4);
    assert.match(syntaxError(wrap('*** Delete File:   ')).message, /needs a path/);
  });
});
