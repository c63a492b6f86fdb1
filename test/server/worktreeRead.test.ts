// thread/worktree/read, through the built server and a real repository: the files a worktree thread
// changed against its base (changed, deleted, committed on its branch, untracked; not ignored), the
// diff of them on request, nothing once applied; a clear error for a thread without a worktree.
import { strict as assert } from 'node:assert';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../support/git';
import { checked, repository, startIn, useWorktreeServers } from '../support/worktrees';

interface Read {
  worktreePath: string;
  branch: string;
  baseSha: string;
  changedFiles: string[];
  diff: string | null;
}

describe('reading what a worktree thread changed', function () {
  this.timeout(60_000);
  const { serve } = useWorktreeServers();

  it('lists the changed files, answers the diff when asked, and nothing once applied', async () => {
    const repo = repository();
    const base = git(repo, 'rev-parse', 'HEAD');
    const server = await serve();
    const { thread, cwd } = await startIn(server, repo);
    const read = (includeDiff?: boolean) =>
      checked<Read>(server, 'thread/worktree/read', { threadId: thread.id, includeDiff });

    const clean = await read();
    assert.deepEqual(clean, {
      worktreePath: cwd,
      branch: thread.gitInfo!.branch,
      baseSha: base,
      changedFiles: [],
      diff: null,
    });

    writeFileSync(join(cwd, 'README.md'), '# Demo\nnew line\n');
    rmSync(join(cwd, 'notes.txt'));
    writeFileSync(join(cwd, 'added.txt'), 'brand new\n');
    writeFileSync(join(cwd, '.gitignore'), 'build/\n');
    writeFileSync(join(cwd, 'ignored.log'), 'x\n');
    git(cwd, 'add', '.gitignore');
    git(cwd, 'commit', '-q', '-m', 'Ignore build');
    writeFileSync(join(cwd, '.gitignore'), 'build/\n*.log\n');
    const changed = await read();
    assert.deepEqual(changed.changedFiles, ['.gitignore', 'README.md', 'added.txt', 'notes.txt']);
    assert.equal(changed.diff, null);

    const { diff } = await read(true);
    assert.match(diff!, /diff --git a\/README.md b\/README.md\n[^]*-old line\n\+new line\n/);
    assert.match(diff!, /diff --git a\/notes.txt b\/notes.txt\ndeleted file mode 100644/);
    assert.match(diff!, /new file mode 100644\n[^]*\+\+\+ b\/added.txt\n@@ -0,0 \+1 @@\n\+brand new\n/);
    assert.match(diff!, /\+build\/\n\+\*\.log\n/);
    assert.doesNotMatch(diff!, /ignored\.log/);

    await checked(server, 'thread/worktree/apply', { threadId: thread.id });
    assert.deepEqual((await read()).changedFiles, []);
  });

  it('answers a clear error for a thread without a worktree', async () => {
    const repo = repository();
    const server = await serve();
    const plain = await server.call<{ thread: { id: string } }>('thread/start', { cwd: repo });
    const none = await server.request('thread/worktree/read', { threadId: plain.thread.id });
    assert.match(none.error!.message, /was not started in a git worktree/);
    const bad = await server.request('thread/worktree/read', { threadId: plain.thread.id, includeDiff: 1 });
    assert.equal(bad.error!.code, -32602);
  });
});
