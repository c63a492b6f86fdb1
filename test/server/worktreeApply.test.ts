// Bringing a worktree thread's files back (thread/worktree/apply), through the built server and real
// git repositories in temp folders: a change merged into a file the user changed too, a binary
// conflict kept beside; no write through a link of the workspace; and a repository whose config and
// hooks name programs runs none of them while its worktree is made, applied and discarded.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../support/git';
import { tempDir } from '../support/serverProcess';
import { checked, repository, startIn, type Applied, useWorktreeServers } from '../support/worktrees';

describe('applying a worktree thread', function () {
  this.timeout(60_000);
  const { serve } = useWorktreeServers();

  it('merges a thread’s change into a file the user changed too, and keeps a binary conflict beside', async () => {
    const repo = repository();
    const server = await serve();
    const { thread, cwd } = await startIn(server, repo);
    // The thread's changes are uncommitted in its worktree: apply commits them on its branch first.
    writeFileSync(join(cwd, 'notes.txt'), 'first\nsecond\nthird, from the thread\n');
    writeFileSync(join(cwd, 'image.bin'), Buffer.from([0, 1, 2, 3]));
    writeFileSync(join(repo, 'notes.txt'), 'first, from the user\nsecond\nthird\n');
    writeFileSync(join(repo, 'image.bin'), Buffer.from([0, 9, 9]));
    const applied = await checked<Applied>(server, 'thread/worktree/apply', { threadId: thread.id });
    assert.equal(applied.mode, 'patch');
    assert.deepEqual(applied.merged, ['notes.txt']);
    assert.equal(
      readFileSync(join(repo, 'notes.txt'), 'utf8'),
      'first, from the user\nsecond\nthird, from the thread\n',
    );
    assert.deepEqual(applied.conflicts, [
      {
        path: 'image.bin',
        resolution: 'theirsBeside',
        theirsPath: 'image.bin.threadline',
        reason: 'changed on both sides (binary)',
      },
    ]);
    assert.deepEqual([...readFileSync(join(repo, 'image.bin'))], [0, 9, 9], 'the user’s file untouched');
    assert.deepEqual([...readFileSync(join(repo, 'image.bin.threadline'))], [0, 1, 2, 3]);
  });

  it('writes through no link of the workspace', async function () {
    if (process.platform === 'win32') this.skip();
    const repo = repository();
    const outside = tempDir('threadline-wt-outside-');
    writeFileSync(join(outside, 'victim.txt'), 'untouched\n');
    const server = await serve();
    const { thread, cwd } = await startIn(server, repo);
    writeFileSync(join(cwd, 'README.md'), '# Demo\nfrom the thread\n');
    mkdirSync(join(cwd, 'docs'));
    writeFileSync(join(cwd, 'docs', 'victim.txt'), 'pwned\n');
    // The workspace is dirty (so the apply goes file by file), README.md a link out, docs/ too.
    rmSync(join(repo, 'README.md'));
    symlinkSync(join(outside, 'victim.txt'), join(repo, 'README.md'));
    symlinkSync(outside, join(repo, 'docs'));
    const applied = await checked<Applied>(server, 'thread/worktree/apply', { threadId: thread.id });
    assert.equal(applied.mode, 'patch');
    assert.deepEqual(applied.skipped, [
      { path: 'README.md', reason: 'it is a symbolic link in the workspace' },
      { path: 'docs/victim.txt', reason: 'its folder leads outside the repository' },
    ]);
    assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'untouched\n');
  });

  it('runs none of a hostile repository’s programs while making, applying and discarding', async function () {
    if (process.platform === 'win32') this.skip();
    const repo = repository();
    const outside = tempDir('threadline-wt-tools-');
    const canary = join(outside, 'ran');
    const program = (name: string) => {
      const path = join(outside, name);
      writeFileSync(path, `#!/bin/sh\necho ${name} >> '${canary}'\nexec cat\n`);
      chmodSync(path, 0o755);
      return path;
    };
    writeFileSync(join(repo, '.gitattributes'), '* filter=evil merge=evil\n');
    git(repo, 'add', '.gitattributes');
    git(repo, 'commit', '-q', '-m', 'Attributes');
    for (const hook of [
      'post-checkout',
      'pre-commit',
      'post-commit',
      'post-merge',
      'reference-transaction',
    ]) {
      writeFileSync(join(repo, '.git', 'hooks', hook), readFileSync(program(hook)));
      chmodSync(join(repo, '.git', 'hooks', hook), 0o755);
    }
    writeFileSync(
      join(repo, '.git', 'config'),
      readFileSync(join(repo, '.git', 'config'), 'utf8') +
        `[core]\n\tfsmonitor = ${program('fsmonitor')}\n` +
        `[filter "evil"]\n\tclean = ${program('clean')}\n\tsmudge = ${program('smudge')}\n\trequired = true\n` +
        `[merge "evil"]\n\tdriver = ${program('merge-driver')} %O %A %B\n` +
        `[commit]\n\tgpgSign = true\n[gpg]\n\tprogram = ${program('gpg')}\n`,
    );
    // The fixture is live: plain git runs its programs.
    execFileSync('git', ['status'], { cwd: repo, stdio: 'ignore' });
    assert.ok(existsSync(canary), 'plain git ran the fsmonitor');
    rmSync(canary);

    const server = await serve();
    const a = await startIn(server, repo);
    const b = await startIn(server, repo);
    writeFileSync(join(a.cwd, 'README.md'), '# Demo\nfrom a\n');
    writeFileSync(join(b.cwd, 'README.md'), '# Demo\nfrom b\n');
    assert.equal(
      (await checked<Applied>(server, 'thread/worktree/apply', { threadId: a.thread.id })).mode,
      'merge',
    );
    const second = await checked<Applied>(server, 'thread/worktree/apply', { threadId: b.thread.id });
    assert.deepEqual(
      second.conflicts.map((c) => c.resolution),
      ['markers'],
    );
    await checked(server, 'thread/worktree/discard', { threadId: b.thread.id });
    assert.ok(!existsSync(canary), `programs ran: ${existsSync(canary) ? readFileSync(canary, 'utf8') : ''}`);
  });
});
