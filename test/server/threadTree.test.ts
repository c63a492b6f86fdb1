// The Threads tree's model against the real server, through the extension's own client: grouping by
// recency, workspace scope, paging, the Archived node, and live updates applied in place.
import { strict as assert } from 'node:assert';
import { ServerClient } from '../../extension/client/serverClient';
import { ThreadTreeModel } from '../../extension/threads/threadTreeModel';
import { type GroupNode, type ThreadNode, type TreeNode } from '../../extension/threads/treeNodes';
import type { ThreadStatus } from '../../server/protocol/thread';
import { serverBundle } from '../support/paths';
import { writeRollout } from '../support/rollouts';
import { tempDir } from '../support/serverProcess';
import { until } from '../support/until';

const day = 24 * 60 * 60 * 1000;
/**
 * Noon of a day `daysAgo` days back. Today's is at most a minute ago (but still today): before noon, a
 * thread stored "at noon today" was in the future and sorted above one the test starts (failed in CI
 * just after midnight).
 */
const noon = (daysAgo: number) => {
  const d = new Date();
  d.setHours(12, 0, 0, 0);
  const at = d.getTime() - daysAgo * day;
  if (daysAgo > 0) return at;
  const startOfToday = new Date().setHours(0, 0, 1, 0);
  return Math.max(startOfToday, Math.min(at, Date.now() - 60_000));
};
const now = () => new Date(noon(0) + 60_000);

function thread(home: string, daysAgo: number, text: string, cwd = '/work/a', name?: string) {
  return writeRollout(home, {
    createdAtMs: noon(daysAgo),
    cwd,
    ...(name ? { name } : {}),
    turns: [{ id: 'turn-1', userText: text, answer: 'ok' }],
  }).id;
}

function clientFor(home: string): ServerClient {
  const quiet = () => {};
  return new ServerClient({
    launch: () => ({
      command: process.execPath,
      args: [serverBundle, 'app-server'],
      env: { ...process.env, THREADLINE_HOME: home },
    }),
    clientInfo: { name: 'threadline_vscode', title: 'Threadline', version: '0.0.0' },
    log: { info: quiet, warn: quiet, error: quiet, server: quiet },
  });
}

function modelFor(client: ServerClient, scope: string[] | 'all' = ['/work/a'], pageSize = 50) {
  const model = new ThreadTreeModel(
    {
      list: (params) => client.request('thread/list', params),
      read: async (threadId) => (await client.request('thread/read', { threadId })).thread,
    },
    { scope: () => (scope === 'all' ? undefined : scope), pageSize, now },
  );
  const changes: (TreeNode[] | undefined)[] = [];
  model.onDidChange((nodes) => changes.push(nodes));
  client.onNotification((notification) => model.apply(notification));
  return { model, changes };
}

const labels = (nodes: TreeNode[]) =>
  nodes.map((n) => (n.kind === 'group' ? n.label : n.kind === 'thread' ? n.thread.preview : n.kind));

describe('the Threads tree model against the real server', () => {
  const clients: ServerClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.dispose();
  });
  const start = (home: string) => {
    const c = clientFor(home);
    clients.push(c);
    return c;
  };

  it('groups the workspace threads by recency, newest first, with an Archived node', async () => {
    const home = tempDir();
    thread(home, 0, 'today one');
    thread(home, 1, 'yesterday one');
    thread(home, 3, 'three days ago');
    thread(home, 6, 'six days ago');
    thread(home, 30, 'a month ago');
    thread(home, 0, 'elsewhere', '/work/b');
    const { model } = modelFor(start(home));
    const root = await model.children();
    assert.deepEqual(labels(root), ['Today', 'Yesterday', 'Previous 7 Days', 'Older', 'archived']);
    const children = await Promise.all(root.map((n) => model.children(n)));
    assert.deepEqual(children.map(labels), [
      ['today one'],
      ['yesterday one'],
      ['three days ago', 'six days ago'],
      ['a month ago'],
      [],
    ]);
  });

  it('lists every workspace when the scope is all', async () => {
    const home = tempDir();
    thread(home, 0, 'here');
    thread(home, 0, 'elsewhere', '/work/b');
    const { model } = modelFor(start(home), 'all');
    const [today] = await model.children();
    assert.deepEqual(labels(await model.children(today)).sort(), ['elsewhere', 'here']);
  });

  it('pages with Load more… until the cursor runs out, without duplicates', async () => {
    const home = tempDir();
    for (let i = 0; i < 120; i++) thread(home, 40 + i / 100, `old ${i}`);
    const { model } = modelFor(start(home), ['/work/a'], 50);
    const seen = async () => {
      const root = await model.children();
      const older = root.find((n): n is GroupNode => n.kind === 'group')!;
      return { root, threads: (await model.children(older)) as ThreadNode[] };
    };
    let { root, threads } = await seen();
    assert.equal(threads.length, 50);
    assert.deepEqual(labels(root), ['Older', 'loadMore', 'archived']);
    await model.loadMore('active');
    await model.loadMore('active');
    ({ root, threads } = await seen());
    assert.equal(threads.length, 120);
    assert.equal(new Set(threads.map((t) => t.thread.id)).size, 120);
    assert.deepEqual(labels(root), ['Older', 'archived'], 'no Load more… after the last page');
    assert.deepEqual(
      threads.map((t) => t.thread.preview),
      Array.from({ length: 120 }, (_, i) => `old ${i}`),
      'newest first across pages',
    );
  });

  it('shows nothing at all (the welcome view) when no thread exists, archived or not', async () => {
    const { model } = modelFor(start(tempDir()));
    assert.deepEqual(await model.children(), []);
    assert.equal(model.error, undefined);
  });

  it('renames in place: the same node, one change event for it', async () => {
    const home = tempDir();
    const id = thread(home, 0, 'to be renamed');
    thread(home, 0, 'another');
    const client = start(home);
    const { model, changes } = modelFor(client);
    const [today] = await model.children();
    await model.children(today);
    const node = model.thread(id)!;
    await client.request('thread/name/set', { threadId: id, name: 'Renamed' });
    await until(() => node.thread.name === 'Renamed');
    assert.equal(model.thread(id), node, 'the node object is kept, so the view keeps selection');
    assert.deepEqual(changes, [[node]]);
  });

  it('moves an archived thread under Archived and back when unarchived', async () => {
    const home = tempDir();
    const id = thread(home, 0, 'archive me');
    thread(home, 0, 'stays');
    const client = start(home);
    const { model } = modelFor(client);
    const [today, archived] = await model.children();
    assert.deepEqual(labels(await model.children(archived)), []);
    await client.request('thread/archive', { threadId: id });
    await until(() => model.thread(id)?.archived === true);
    assert.deepEqual(labels(await model.children(today)), ['stays']);
    assert.deepEqual(labels(await model.children(archived)), ['archive me']);
    assert.equal(model.parent(model.thread(id)!), archived);
    await client.request('thread/unarchive', { threadId: id });
    await until(() => model.thread(id)?.archived === false);
    assert.deepEqual(labels(await model.children(today)).sort(), ['archive me', 'stays']);
    assert.deepEqual(labels(await model.children(archived)), []);
  });

  it('adds a thread the moment it starts, in its group only, and ignores other workspaces', async () => {
    const home = tempDir();
    thread(home, 0, 'existing');
    const client = start(home);
    const { model, changes } = modelFor(client);
    const [today] = await model.children();
    const { thread: started } = await client.request('thread/start', { cwd: '/work/a' });
    await until(() => model.thread(started.id) !== undefined);
    assert.deepEqual(
      (await model.children(today)).map((n) => (n as ThreadNode).thread.id)[0],
      started.id,
      'newest first',
    );
    assert.deepEqual(changes, [[today]], 'only the Today group was refreshed');
    await client.request('thread/start', { cwd: '/work/b' });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await model.children(today)).length, 2, 'a thread of another workspace is not shown');
  });

  it('counts threads waiting for approval and follows status changes', async () => {
    const home = tempDir();
    const id = thread(home, 0, 'busy');
    const { model, changes } = modelFor(start(home));
    await model.children();
    const status: ThreadStatus = { type: 'active', activeFlags: ['waitingOnApproval'] };
    assert.equal(model.apply({ method: 'thread/status/changed', params: { threadId: id, status } }), true);
    assert.equal(model.waitingCount(), 1);
    model.apply({ method: 'thread/closed', params: { threadId: id } });
    assert.equal(model.waitingCount(), 0);
    assert.deepEqual(model.thread(id)!.thread.status, { type: 'notLoaded' });
    assert.equal(changes.length, 2);
  });

  it('lists the same tree again after the server was killed and came back', async () => {
    const home = tempDir();
    thread(home, 0, 'survivor');
    thread(home, 2, 'older survivor');
    const client = start(home);
    const { model } = modelFor(client);
    const before = await model.children();
    const all = async () =>
      (await Promise.all((await model.children()).map((n) => model.children(n)))).map(labels);
    const listed = await all();
    let restarted = false;
    client.onRestarted(() => {
      restarted = true;
      model.reset();
    });
    (client as unknown as { running: { child: { kill(s: string): void } } }).running.child.kill('SIGKILL');
    await until(() => restarted);
    assert.deepEqual(labels(await model.children()), labels(before));
    assert.deepEqual(await all(), listed);
  });

  it('reports a failed listing instead of throwing, and recovers on reset', async () => {
    const home = tempDir();
    thread(home, 0, 'fine');
    let fail = true;
    const client = start(home);
    const model = new ThreadTreeModel(
      {
        list: (params) =>
          fail ? Promise.reject(new Error('server gone')) : client.request('thread/list', params),
        read: async (threadId) => (await client.request('thread/read', { threadId })).thread,
      },
      { scope: () => ['/work/a'], now },
    );
    assert.deepEqual(await model.children(), []);
    assert.equal(model.error, 'server gone');
    fail = false;
    model.reset();
    assert.deepEqual(labels(await model.children()), ['Today', 'archived']);
    assert.equal(model.error, undefined);
  });
});
