// The Threads tree's section folders against the real server, through the extension's own client:
// sections listed first as folders holding their threads, moves applied live from
// thread/section/changed, and a deleted section's threads back in their recency group.
import { strict as assert } from 'node:assert';
import { ServerClient } from '../../extension/client/serverClient';
import { ThreadTreeModel } from '../../extension/threads/threadTreeModel';
import { type FolderNode, type TreeNode } from '../../extension/threads/treeNodes';
import { serverBundle } from '../support/paths';
import { writeRollout } from '../support/rollouts';
import { tempDir } from '../support/serverProcess';
import { until } from '../support/until';

const labels = (nodes: TreeNode[]) =>
  nodes.map((n) =>
    n.kind === 'group'
      ? n.label
      : n.kind === 'thread'
        ? n.thread.preview
        : n.kind === 'folder'
          ? `folder:${n.section.name}`
          : n.kind,
  );

describe('the Threads tree: section folders against the real server', () => {
  const clients: ServerClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.dispose();
  });

  function setUp() {
    const home = tempDir();
    const at = Date.now() - 60_000;
    const ids = ['first', 'second', 'third'].map(
      (text, i) =>
        writeRollout(home, {
          createdAtMs: at - i * 1000,
          cwd: '/work/a',
          turns: [{ id: 'turn-1', userText: text, answer: 'ok' }],
        }).id,
    );
    const quiet = () => {};
    const client = new ServerClient({
      launch: () => ({
        command: process.execPath,
        args: [serverBundle, 'app-server'],
        env: { ...process.env, THREADLINE_HOME: home },
      }),
      clientInfo: { name: 'threadline_vscode', title: 'Threadline', version: '0.0.0' },
      log: { info: quiet, warn: quiet, error: quiet, server: quiet },
    });
    clients.push(client);
    const model = new ThreadTreeModel(
      {
        list: (params) => client.request('thread/list', params),
        read: async (threadId) => (await client.request('thread/read', { threadId })).thread,
        sections: async () => (await client.request('threadSection/list', {})).data,
      },
      { scope: () => ['/work/a'] },
    );
    client.onNotification((notification) => model.apply(notification));
    return { client, model, ids };
  }

  it('shows sections first as folders holding their threads, the others by recency', async () => {
    const { client, model, ids } = setUp();
    const { section } = await client.request('threadSection/create', { name: 'Work' });
    await client.request('threadSection/create', { name: 'Empty' });
    await client.request('thread/section/move', { threadId: ids[1]!, sectionId: section.id });
    const root = await model.children();
    assert.deepEqual(labels(root), ['folder:Work', 'folder:Empty', 'Today', 'archived']);
    const [work, empty, today] = root;
    assert.deepEqual(labels(await model.children(work)), ['second']);
    assert.deepEqual(labels(await model.children(empty)), []);
    assert.deepEqual(labels(await model.children(today)), ['first', 'third']);
    assert.equal(model.parent(model.thread(ids[1]!)!), work, 'a thread is revealed under its folder');
  });

  it("moves threads between folders live, and shows a deleted section's threads by recency again", async () => {
    const { client, model, ids } = setUp();
    const { section } = await client.request('threadSection/create', { name: 'Inbox' });
    const root = await model.children();
    const folder = root.find((n): n is FolderNode => n.kind === 'folder')!;
    assert.deepEqual(labels(await model.children(folder)), []);

    await client.request('thread/section/move', { threadId: ids[0]!, sectionId: section.id });
    await until(() => model.thread(ids[0]!)?.thread.section?.id === section.id);
    assert.deepEqual(labels(await model.children(folder)), ['first']);

    // A section made elsewhere (no notification says so) appears once a thread moves into it.
    const { section: other } = await client.request('threadSection/create', { name: 'Later' });
    await client.request('thread/section/move', { threadId: ids[2]!, sectionId: other.id });
    await until(() => model.thread(ids[2]!)?.thread.section?.id === other.id);
    assert.deepEqual(labels(await model.children()), ['folder:Inbox', 'folder:Later', 'Today', 'archived']);

    await client.request('threadSection/delete', { sectionId: section.id });
    await until(() => model.thread(ids[0]!)?.thread.section === null);
    await model.reloadSections();
    const after = await model.children();
    assert.deepEqual(labels(after), ['folder:Later', 'Today', 'archived']);
    assert.deepEqual(labels(await model.children(after[1])), ['first', 'second']);
  });
});
