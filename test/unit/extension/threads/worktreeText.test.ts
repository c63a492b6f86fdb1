import { strict as assert } from 'node:assert';
import { applySummary, lossDetail } from '../../../../extension/threads/worktreeText';

describe('the words for a worktree apply', () => {
  const base = { branch: 'threadline/main-1234abcd', commit: 'abcdef0123456789', skipped: [] };

  it('says a fast-forward', () => {
    const text = applySummary({
      ...base,
      mode: 'merge',
      applied: ['a.ts', 'b.ts'],
      merged: [],
      conflicts: [],
    });
    assert.equal(text, '2 file(s) from threadline/main-1234abcd merged (fast-forward).');
  });

  it('names each conflict and where both sides are', () => {
    const text = applySummary({
      ...base,
      mode: 'patch',
      applied: [],
      merged: ['notes.txt'],
      conflicts: [
        { path: 'README.md', resolution: 'markers', theirsPath: null, reason: 'changed on both sides' },
        { path: 'a.png', resolution: 'theirsBeside', theirsPath: 'a.png.threadline', reason: 'binary' },
        { path: 'old.ts', resolution: 'oursKept', theirsPath: null, reason: 'deleted in the thread' },
      ],
    });
    assert.match(text, /^1 file\(s\) from threadline\/main-1234abcd applied as a patch\./);
    assert.match(text, /Merged with your uncommitted changes: notes\.txt\./);
    assert.match(
      text,
      /Conflicts, both sides kept: README\.md \(conflict markers\), a\.png \(the thread's version in a\.png\.threadline\), old\.ts \(yours kept: deleted in the thread\)\./,
    );
  });

  it('says when there is nothing to apply', () => {
    const text = applySummary({ ...base, mode: 'none', applied: [], merged: [], conflicts: [] });
    assert.equal(text, 'Nothing to apply: threadline/main-1234abcd has no changes.');
  });

  it('lists what a discard would lose, thirty lines at most', () => {
    const preview = {
      worktreePath: '/h/worktrees/repo/t',
      branch: 'threadline/main-1234abcd',
      removed: false,
      uncommittedFiles: ['draft.txt'],
      commits: [{ sha: 'abcdef0123456789', subject: 'Add the parser' }],
    };
    assert.equal(
      lossDetail(preview),
      'This is lost for good:\n• draft.txt (uncommitted)\n• commit abcdef0 Add the parser',
    );
    const many = {
      ...preview,
      uncommittedFiles: Array.from({ length: 40 }, (_, i) => `f${i}.ts`),
      commits: [],
    };
    assert.match(lossDetail(many), /• f29\.ts \(uncommitted\)\n… and 10 more$/);
    assert.equal(
      lossDetail({ ...preview, uncommittedFiles: [], commits: [] }),
      'The worktree has no changes; nothing is lost.',
    );
  });
});
