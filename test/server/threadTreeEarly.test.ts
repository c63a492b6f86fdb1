// The Threads tree's model keeps up with threads started while its first page is on its way, against the
// real server: the server answers requests concurrently, so a page read before a thread started can
// arrive after that thread's thread/started. The tree lists the thread anyway (it said "No threads yet"
// with the thread open in the conversation).
import { strict as assert } from 'node:assert';
import { ServerClient } from '../../extension/client/serverClient';
import { ThreadTreeModel } from '../../extension/threads/threadTreeModel';
import { type ThreadNode, type TreeNode } from '../../extension/threads/treeNodes';
import type { ResultOf } from '../../server/protocol/methods';
import { serverBundle } from '../support/paths';
import { tempDir } from '../support/serverProcess';
import { until } from '../support/until';

describe('the Threads tree model and threads started while it lists', function () {
  this.timeout(30_000);
  let client: ServerClient | undefined;
  afterEach(async () => {
    await client?.dispose();
    client = undefined;
  });

  function start(): ServerClient {
    const home = tempDir('threadline-tree-early-');
    client = new ServerClient({
      launch: () => ({
        command: process.execPath,
        args: [serverBundle, 'app-server'],
        env: { ...process.env, THREADLINE_HOME: home },
      }),
      clientInfo: { name: 'threadline_vscode', title: 'Threadline', version: '0.0.0' },
      log: { info() {}, warn() {}, error() {}, server() {} },
    });
    return client;
  }

  const threadsUnder = async (model: ThreadTreeModel): Promise<string[]> => {
    const ids: string[] = [];
    for (const node of await model.children()) {
      if (node.kind !== 'group') continue;
      for (const child of await model.children(node)) ids.push((child as ThreadNode).thread.id);
    }
    return ids;
  };

  it('lists a thread whose thread/started arrived before the page that was read without it', async () => {
    const server = start();
    const cwd = tempDir('threadline-tree-early-ws-');
    let listed!: () => void;
    const pageRead = new Promise<void>((resolve) => (listed = resolve));
    let started!: () => void;
    const startedSeen = new Promise<void>((resolve) => (started = resolve));
    // The page is answered by the real server, and handed to the tree only after thread/started:
    // the order the server's concurrent answers can take.
    const model = new ThreadTreeModel(
      {
        list: async (params): Promise<ResultOf<'thread/list'>> => {
          const page = await server.request('thread/list', params);
          listed();
          await startedSeen;
          return page;
        },
        read: async (threadId) => (await server.request('thread/read', { threadId })).thread,
      },
      { scope: () => [cwd] },
    );
    server.onNotification((n) => {
      model.apply(n);
      if (n.method === 'thread/started') started();
    });
    const changes: (TreeNode[] | undefined)[] = [];
    model.onDidChange((nodes) => changes.push(nodes));

    const root = model.children();
    await pageRead;
    const { thread } = await server.request('thread/start', { cwd });
    assert.equal((await root).length > 0, true, 'the root shows a group, not "No threads yet"');
    assert.deepEqual(await threadsUnder(model), [thread.id]);

    // Live updates reach it from then on.
    await server.request('thread/name/set', { threadId: thread.id, name: 'Named later' });
    await until(() => model.thread(thread.id)?.thread.name === 'Named later');
    assert.ok(changes.length > 0);
  });
});
