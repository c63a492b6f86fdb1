// Deleting and forking a worktree thread, through the built server and a real repository: a delete
// takes a worktree with no work in it along (worktree, branch, record), refuses one holding work
// until it is discarded; a fork that would share the worktree's folder is refused unless the client
// names the fork's cwd.
import { strict as assert } from 'node:assert';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../support/git';
import { checked, repository, startIn, useWorktreeServers } from '../support/worktrees';

describe('deleting and forking a worktree thread', function () {
  this.timeout(60_000);
  const { home, serve } = useWorktreeServers();
  const record = (threadId: string) => join(home(), 'worktree-links', `${threadId}.json`);
  const listed = async (server: Awaited<ReturnType<typeof serve>>, repo: string) =>
    (await server.call<{ data: { id: string }[] }>('thread/list', { cwd: repo })).data.map((t) => t.id);

  it('deletes a worktree with no work in it along with its thread', async () => {
    const repo = repository();
    const server = await serve();
    const { thread, cwd } = await startIn(server, repo);
    assert.ok(existsSync(record(thread.id)));
    await server.call('thread/delete', { threadId: thread.id });
    assert.ok(!existsSync(cwd));
    assert.equal(git(repo, 'branch', '--list', 'threadline/*'), '');
    assert.ok(!existsSync(record(thread.id)));
    assert.deepEqual(await listed(server, repo), []);
  });

  it('refuses to delete a thread whose worktree holds work, until it is discarded', async () => {
    const repo = repository();
    const server = await serve();
    const { thread, cwd } = await startIn(server, repo);
    writeFileSync(join(cwd, 'draft.txt'), 'work\n');
    const refused = await server.request('thread/delete', { threadId: thread.id });
    assert.equal(refused.error!.code, -32600);
    assert.match(refused.error!.message, /holds 1 uncommitted file\(s\): apply it .* or discard it/);
    assert.ok(existsSync(join(cwd, 'draft.txt')), 'the work is still there');
    assert.deepEqual(await listed(server, repo), [thread.id]);

    await checked(server, 'thread/worktree/discard', { threadId: thread.id });
    await server.call('thread/delete', { threadId: thread.id });
    assert.ok(!existsSync(record(thread.id)));
    assert.deepEqual(await listed(server, repo), []);
  });

  it('refuses a fork that would share the worktree, unless the client names its cwd', async () => {
    const repo = repository();
    const server = await serve();
    const { thread, cwd } = await startIn(server, repo);
    const shared = await server.request('thread/fork', { threadId: thread.id });
    assert.match(
      shared.error!.message,
      new RegExp(`works in its own git worktree ${cwd} \\(threadline/main-\\w+\\), which a fork would share`),
    );
    const chosen = await server.call<{ cwd: string }>('thread/fork', { threadId: thread.id, cwd: repo });
    assert.equal(chosen.cwd, repo);

    await checked(server, 'thread/worktree/discard', { threadId: thread.id });
    const gone = await server.request('thread/fork', { threadId: thread.id });
    assert.match(gone.error!.message, /worked in a git worktree that was discarded: pass cwd/);
  });
});
