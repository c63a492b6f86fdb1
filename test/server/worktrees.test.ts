// Threads in their own git worktrees, through the built server, real git repositories in temp
// folders and the scripted model: a thread started with `worktree` works in a new branch and
// worktree under the home; its turns' patches land there, not in the workspace; two such threads run
// at once without touching each other; thread/worktree/apply brings one back as a fast-forward onto a
// clean workspace and the other as files, three ways, conflicts kept on both sides and listed;
// discard removes worktree and branch; the link survives a restart; a half-made worktree is cleaned
// up. (Applying in detail: worktreeApply.test.ts.)
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../support/git';
import { startTurn, turnCompleted } from '../support/agent';
import { commandItems, execCall } from '../support/commands';
import { tempDir, type ServerProcess } from '../support/serverProcess';
import { until } from '../support/until';
import {
  checked,
  readmeTo,
  repository,
  startIn,
  type Applied,
  useWorktreeServers,
} from '../support/worktrees';

describe('threads in git worktrees', function () {
  this.timeout(60_000);
  const { model, home, serve } = useWorktreeServers();

  async function turn(server: ServerProcess, threadId: string) {
    const started = await startTurn(server, threadId, 'Change the readme');
    const done = await turnCompleted(server, started.id, 30_000);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
  }

  it('runs a thread in its own branch and worktree, and two at once without trampling', async () => {
    const repo = repository();
    const server = await serve();
    const a = await startIn(server, repo);
    const b = await startIn(server, repo);
    const worktrees = realpathSync(join(home(), 'worktrees'));
    for (const started of [a, b]) {
      assert.equal(started.cwd, started.thread.cwd);
      assert.ok(started.cwd.startsWith(join(worktrees, 'threadline-wt-repo-')), started.cwd);
      assert.ok(started.cwd.endsWith(started.thread.id));
      assert.match(
        started.thread.gitInfo!.branch!,
        new RegExp(`^threadline/main-${started.thread.id.slice(-8)}$`),
      );
      assert.equal(git(started.cwd, 'rev-parse', '--abbrev-ref', 'HEAD'), started.thread.gitInfo!.branch);
      assert.equal(started.thread.gitInfo!.sha, git(repo, 'rev-parse', 'HEAD'));
    }
    assert.match(git(repo, 'branch', '--list', 'threadline/*'), /threadline\/main-/);

    // Both turns at once: each model call answers slowly, so the two patches are in flight together.
    model.script(
      { ...readmeTo('from one thread'), delayMs: 400 },
      { ...readmeTo('from another thread'), delayMs: 400 },
      { output: [{ text: 'Done.' }] },
      { output: [{ text: 'Done.' }] },
    );
    await Promise.all([turn(server, a.thread.id), turn(server, b.thread.id)]);
    const lines = [a, b].map((s) => readFileSync(join(s.cwd, 'README.md'), 'utf8'));
    assert.deepEqual(
      [...lines].sort(),
      ['# Demo\nfrom another thread\n', '# Demo\nfrom one thread\n'],
      'each worktree holds its own thread’s change only',
    );
    assert.equal(
      readFileSync(join(repo, 'README.md'), 'utf8'),
      '# Demo\nold line\n',
      'the workspace is untouched',
    );
    assert.equal(git(repo, 'status', '--porcelain'), '');

    // The first comes back as a merge: the workspace is clean and on the base.
    const first = await checked<Applied>(server, 'thread/worktree/apply', { threadId: a.thread.id });
    assert.equal(first.mode, 'merge');
    assert.deepEqual(first.applied, ['README.md']);
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), lines[0]);
    assert.equal(git(repo, 'rev-parse', 'HEAD'), git(repo, 'rev-parse', a.thread.gitInfo!.branch!));
    assert.equal(
      git(repo, 'log', '-1', '--format=%an %s'),
      `Threadline Threadline: changes of thread ${a.thread.id}`,
    );

    // Applied once, the worktree's base moves on: applying again brings nothing.
    const again = await checked<Applied>(server, 'thread/worktree/apply', { threadId: a.thread.id });
    assert.equal(again.mode, 'none');

    // The user has an uncommitted change of their own in notes.txt; the second thread changed the
    // same README line as the first: it comes as a patch, the conflict kept with both sides.
    writeFileSync(join(repo, 'notes.txt'), 'first\nsecond, edited by the user\nthird\n');
    const second = await checked<Applied>(server, 'thread/worktree/apply', { threadId: b.thread.id });
    assert.equal(second.mode, 'patch');
    assert.deepEqual(second.applied, []);
    assert.deepEqual(second.conflicts, [
      { path: 'README.md', resolution: 'markers', theirsPath: null, reason: 'changed on both sides' },
    ]);
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    assert.match(readme, /<<<<<<< workspace\n/);
    assert.ok(
      readme.includes(lines[0]!.split('\n')[1]!) && readme.includes(lines[1]!.split('\n')[1]!),
      readme,
    );
    assert.equal(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'first\nsecond, edited by the user\nthird\n');
    // Both versions stay recoverable besides the markers: each thread's commit on its branch.
    assert.equal(git(repo, 'show', `${a.thread.gitInfo!.branch}:README.md`), lines[0]!.trimEnd());
    assert.equal(git(repo, 'show', `${b.thread.gitInfo!.branch}:README.md`), lines[1]!.trimEnd());
    assert.equal(
      git(repo, 'rev-parse', 'HEAD'),
      git(repo, 'rev-parse', a.thread.gitInfo!.branch!),
      'HEAD not moved',
    );
  });

  it('confines a command to the worktree: the workspace, the repository’s .git and the home stay shut', async function () {
    if (process.platform !== 'linux') this.skip();
    const repo = repository();
    const server = await serve();
    const { thread, cwd } = await startIn(server, repo);
    const cmd = [
      'echo ok > made.txt',
      `echo pwned > ${repo}/README.md`,
      `echo hook > ${repo}/.git/hooks/pre-commit`,
      'echo gone > .git',
      `ls ${home()}/config.toml`,
    ].join('; ');
    model.script(...execCall({ cmd }));
    // The host's /tmp stays visible (read-only), where the temp repository is, as in confinement.test.ts.
    const started = await startTurn(server, thread.id, 'go', {
      sandboxPolicy: { type: 'workspaceWrite', excludeSlashTmp: true },
    });
    assert.equal((await turnCompleted(server, started.id, 30_000)).status, 'completed');
    const [item] = commandItems(server, started.id);
    const output = item!.aggregatedOutput ?? '';
    assert.equal(output.match(/Read-only file system/g)?.length, 3, output);
    assert.match(output, /config\.toml'?: No such file or directory/);
    assert.equal(readFileSync(join(cwd, 'made.txt'), 'utf8'), 'ok\n');
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\nold line\n');
    assert.ok(!existsSync(join(repo, '.git', 'hooks', 'pre-commit')));
    assert.match(readFileSync(join(cwd, '.git'), 'utf8'), /^gitdir: /);
  });

  it('discards the worktree and branch, saying first what would be lost', async () => {
    const repo = repository();
    const server = await serve();
    const { thread, cwd } = await startIn(server, repo);
    writeFileSync(join(cwd, 'draft.txt'), 'unsaved work\n');
    const preview = await checked<{ removed: boolean; uncommittedFiles: string[] }>(
      server,
      'thread/worktree/discard',
      { threadId: thread.id, dryRun: true },
    );
    assert.equal(preview.removed, false);
    assert.deepEqual(preview.uncommittedFiles, ['draft.txt']);
    assert.ok(existsSync(cwd));
    const done = await checked<{ removed: boolean; branch: string; worktreePath: string }>(
      server,
      'thread/worktree/discard',
      { threadId: thread.id },
    );
    assert.equal(done.removed, true);
    assert.equal(done.worktreePath, cwd);
    assert.ok(!existsSync(cwd));
    assert.equal(git(repo, 'branch', '--list', done.branch), '');
    assert.equal(git(repo, 'worktree', 'list', '--porcelain').includes(cwd), false);
    const again = await server.request('thread/worktree/apply', { threadId: thread.id });
    assert.match(again.error!.message, new RegExp(`the worktree of thread ${thread.id} was discarded`));
    // Still listed with the workspace it was started from.
    const listed = await server.call<{ data: { id: string }[] }>('thread/list', { cwd: repo });
    assert.deepEqual(
      listed.data.map((t) => t.id),
      [thread.id],
    );
  });

  it('keeps the link across a restart', async () => {
    const repo = repository();
    const first = await serve();
    const { thread, cwd } = await startIn(first, repo);
    await first.stop();
    const server = await serve();
    const resumed = await server.call<{ cwd: string }>('thread/resume', { threadId: thread.id });
    assert.equal(resumed.cwd, cwd);
    // Listed with the workspace it was started from, though its cwd is the worktree.
    const listed = await server.call<{ data: { id: string }[] }>('thread/list', { cwd: repo });
    assert.deepEqual(
      listed.data.map((t) => t.id),
      [thread.id],
    );
    writeFileSync(join(cwd, 'README.md'), '# Demo\nafter a restart\n');
    const applied = await checked<Applied>(server, 'thread/worktree/apply', { threadId: thread.id });
    assert.equal(applied.mode, 'merge');
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\nafter a restart\n');
  });

  it('cleans up at the next start a worktree whose creation a killed server left half-made', async () => {
    const repo = repository();
    // What a kill between `git worktree add` and the record's `ready` leaves: branch, worktree, record.
    const threadId = '01a21b00-0000-7000-8000-00000000dead';
    const path = join(home(), 'worktrees', 'repo', threadId);
    mkdirSync(join(home(), 'worktrees', 'repo'), { recursive: true });
    git(repo, 'worktree', 'add', '-q', '-b', 'threadline/main-0000dead', path, 'HEAD');
    mkdirSync(join(home(), 'worktree-links'), { recursive: true });
    const link = {
      threadId,
      repoRoot: repo,
      worktreePath: path,
      branch: 'threadline/main-0000dead',
      state: 'creating',
    };
    writeFileSync(
      join(home(), 'worktree-links', `${threadId}.json`),
      JSON.stringify({ ...link, baseSha: git(repo, 'rev-parse', 'HEAD') }),
    );
    await serve();
    await until(() => !existsSync(path) && !existsSync(join(home(), 'worktree-links', `${threadId}.json`)));
    await until(() => git(repo, 'branch', '--list', 'threadline/*') === '');
    assert.doesNotMatch(git(repo, 'worktree', 'list'), /dead/);
  });

  it('leaves nothing behind after a server killed while it made a worktree, once restarted', async () => {
    const repo = repository();
    // Enough files that checking them out takes a while: the kill lands while git works.
    mkdirSync(join(repo, 'many'));
    for (let i = 0; i < 4000; i++) writeFileSync(join(repo, 'many', `f${i}.txt`), `${i}\n`);
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'Many');
    const first = await serve();
    const links = join(home(), 'worktree-links');
    void first.request('thread/start', { cwd: repo, worktree: {} }).catch(() => undefined);
    // Killed once git has begun the worktree's folder, before the record says it is ready.
    type Link = { worktreePath: string; state: string };
    let made: Link | null = null;
    for (const end = Date.now() + 20_000; Date.now() < end && !made;) {
      const name = existsSync(links) ? readdirSync(links).find((n) => n.endsWith('.json')) : undefined;
      const link: Link | null = name ? JSON.parse(readFileSync(join(links, name), 'utf8')) : null;
      if (link && existsSync(link.worktreePath)) made = link;
      else await new Promise((r) => setTimeout(r, 2));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    assert.ok(made, 'the worktree was begun');
    const left = readdirSync(links).map(
      (n) => JSON.parse(readFileSync(join(links, n), 'utf8')) as { state: string },
    );
    assert.deepEqual(
      left.map((l) => l.state),
      ['creating'],
      'killed while the worktree was being made',
    );

    // The killed server's git may still be at work: the cleanup waits for it and tries again.
    await serve();
    await until(() => readdirSync(links).length === 0, 30_000);
    assert.equal(git(repo, 'branch', '--list', 'threadline/*'), '');
    assert.equal(git(repo, 'worktree', 'list').split('\n').length, 1, git(repo, 'worktree', 'list'));
    assert.ok(!existsSync(made!.worktreePath), 'its folder is gone');
  });

  it('answers clear errors: experimental only, bad params, no worktree, no repository', async () => {
    const repo = repository();
    const stable = await serve(false);
    const refused = await stable.request('thread/start', { cwd: repo, worktree: {} });
    assert.match(refused.error!.message, /experimentalApi/);
    const server = await serve();
    const bad = await server.request('thread/worktree/apply', {});
    assert.equal(bad.error!.code, -32602);
    const badBase = await server.request('thread/start', { cwd: repo, worktree: { base: 'no-such-ref' } });
    assert.match(badBase.error!.message, /no-such-ref is not a commit/);
    const plain = await server.call<{ thread: { id: string } }>('thread/start', { cwd: repo });
    const none = await server.request('thread/worktree/discard', { threadId: plain.thread.id });
    assert.match(
      none.error!.message,
      new RegExp(`thread ${plain.thread.id} was not started in a git worktree`),
    );
    const notRepo = await server.request('thread/start', {
      cwd: tempDir('threadline-no-repo-'),
      worktree: {},
    });
    assert.match(notRepo.error!.message, /is not inside a git repository/);
  });
});
