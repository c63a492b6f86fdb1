import { strict as assert } from 'node:assert';
import { proposedFiles } from '../../../../extension/approvals/proposedFiles';

const disk: Record<string, string> = {
  '/r/a.txt': 'one\ntwo\nthree\n',
  '/r/crlf.txt': 'one\r\ntwo\r\n',
  '/r/old.txt': 'keep\nme\n',
  '/r/gone.txt': 'bye\n',
};
const read = async (path: string) => disk[path] ?? '';

describe('proposed files of a fileChange item', () => {
  it('rebuilds each side of an update, an add, a delete and a move', async () => {
    const files = await proposedFiles(
      [
        {
          path: '/r/a.txt',
          kind: { type: 'update', move_path: null },
          diff: '@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
        },
        { path: '/r/new.txt', kind: { type: 'add' }, diff: 'hello\n' },
        { path: '/r/gone.txt', kind: { type: 'delete' }, diff: 'bye\n' },
        {
          path: '/r/old.txt',
          kind: { type: 'update', move_path: '/r/moved.txt' },
          diff: '@@ -1,2 +1,2 @@\n keep\n-me\n+you\n',
        },
      ],
      read,
    );
    assert.deepEqual(files, [
      {
        path: '/r/a.txt',
        target: '/r/a.txt',
        kind: 'update',
        current: 'one\ntwo\nthree\n',
        proposed: 'one\nTWO\nthree\n',
      },
      { path: '/r/new.txt', target: '/r/new.txt', kind: 'add', current: '', proposed: 'hello\n' },
      { path: '/r/gone.txt', target: '/r/gone.txt', kind: 'delete', current: 'bye\n', proposed: '' },
      {
        path: '/r/old.txt',
        target: '/r/moved.txt',
        kind: 'move',
        current: 'keep\nme\n',
        proposed: 'keep\nyou\n',
      },
    ]);
  });

  it('a pure move (no hunks) proposes the same content at the destination', async () => {
    const [file] = await proposedFiles(
      [{ path: '/r/old.txt', kind: { type: 'update', move_path: '/r/b.txt' }, diff: '' }],
      read,
    );
    assert.deepEqual([file!.kind, file!.current, file!.proposed], ['move', 'keep\nme\n', 'keep\nme\n']);
  });

  it('applies LF hunks to a CRLF file and keeps its line breaks', async () => {
    const [file] = await proposedFiles(
      [
        {
          path: '/r/crlf.txt',
          kind: { type: 'update', move_path: null },
          diff: '@@ -1,2 +1,2 @@\n one\n-two\n+2\n',
        },
      ],
      read,
    );
    assert.equal(file!.proposed, 'one\r\n2\r\n');
  });

  it('refuses hunks that no longer fit the file', async () => {
    await assert.rejects(
      proposedFiles(
        [
          {
            path: '/r/a.txt',
            kind: { type: 'update', move_path: null },
            diff: '@@ -1,1 +1,1 @@\n-zzz\n+y\n',
          },
        ],
        read,
      ),
      /no longer fits/,
    );
  });
});
