// thread/start's `worktree.carryChanges`, through the built server and a real repository: the
// workspace's uncommitted work (a changed file, a deleted one, a staged new one, an untracked one)
// is in the new worktree; an ignored file and a link are not; the workspace itself is untouched; and
// carrying onto another commit than HEAD's is refused clearly.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../support/git';
import { tempDir } from '../support/serverProcess';
import { repository, startIn, useWorktreeServers } from '../support/worktrees';

describe('carrying uncommitted changes into a new worktree', function () {
  this.timeout(60_000);
  const { home, serve } = useWorktreeServers();

  it('copies changed, deleted, staged and untracked files, and leaves the workspace as it was', async function () {
    const repo = repository();
    writeFileSync(join(repo, '.gitignore'), 'secret.env\n');
    git(repo, 'add', '.gitignore');
    git(repo, 'commit', '-q', '-m', 'Ignore');
    writeFileSync(join(repo, 'README.md'), '# Demo\nuncommitted line\n');
    rmSync(join(repo, 'notes.txt'));
    writeFileSync(join(repo, 'staged.txt'), 'staged\n');
    git(repo, 'add', 'staged.txt');
    writeFileSync(join(repo, 'draft.txt'), 'untracked\n');
    writeFileSync(join(repo, 'secret.env'), 'TOKEN=1\n');
    const outside = tempDir('threadline-wt-carry-outside-');
    writeFileSync(join(outside, 'target.txt'), 'outside\n');
    if (process.platform !== 'win32') symlinkSync(join(outside, 'target.txt'), join(repo, 'link.txt'));
    const status = git(repo, 'status', '--porcelain');

    const server = await serve();
    const { cwd } = await startIn(server, repo, { carryChanges: true });
    assert.equal(readFileSync(join(cwd, 'README.md'), 'utf8'), '# Demo\nuncommitted line\n');
    assert.ok(!existsSync(join(cwd, 'notes.txt')), 'the deletion is carried');
    assert.equal(readFileSync(join(cwd, 'staged.txt'), 'utf8'), 'staged\n');
    assert.equal(readFileSync(join(cwd, 'draft.txt'), 'utf8'), 'untracked\n');
    assert.ok(!existsSync(join(cwd, 'secret.env')), 'an ignored file stays behind');
    assert.ok(!existsSync(join(cwd, 'link.txt')), 'a link is not carried');
    // Carried as the worktree's own uncommitted changes, on a branch still at the base.
    assert.equal(git(cwd, 'rev-parse', 'HEAD'), git(repo, 'rev-parse', 'HEAD'));
    assert.deepEqual(
      git(cwd, 'status', '--porcelain', '-z', '--untracked-files=all')
        .split('\0')
        .filter(Boolean)
        .map((e) => e.trim())
        .sort(),
      ['?? draft.txt', '?? staged.txt', 'D notes.txt', 'M README.md'],
    );
    assert.equal(git(repo, 'status', '--porcelain'), status, 'the workspace is untouched');
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\nuncommitted line\n');

    // Without the option the worktree starts clean.
    const plain = await startIn(server, repo);
    assert.equal(git(plain.cwd, 'status', '--porcelain'), '');
  });

  it('refuses to carry changes onto another commit than HEAD’s, making nothing', async () => {
    const repo = repository();
    const first = git(repo, 'rev-parse', 'HEAD');
    writeFileSync(join(repo, 'notes.txt'), 'changed\n');
    git(repo, 'commit', '-q', '-am', 'Second');
    writeFileSync(join(repo, 'README.md'), '# Demo\nuncommitted\n');
    const server = await serve();
    const refused = await server.request('thread/start', {
      cwd: repo,
      worktree: { base: first, carryChanges: true },
    });
    assert.match(refused.error!.message, /carried only onto HEAD's commit/);
    assert.equal(git(repo, 'branch', '--list', 'threadline/*'), '');
    assert.ok(
      !existsSync(join(home(), 'worktrees')) || git(repo, 'worktree', 'list').split('\n').length === 1,
    );
  });
});
