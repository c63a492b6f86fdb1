// The conversation view's feed against the real server and the scripted model server: a snapshot, then
// every notification of the thread as numbered deltas that rebuild the same conversation in the
// webview's store; older turns paged in, and a long turn's earlier items; other threads' notifications
// left out.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServerClient } from '../../extension/client/serverClient';
import {
  itemsPerTurn,
  ThreadFeed,
  turnsPerPage,
  type FeedServer,
} from '../../extension/conversation/threadFeed';
import { threadTitle, type TitleParts } from '../../webview/common/threadTitle';
import type { HostMessage } from '../../webview/messages';
import { ConversationStore } from '../../webview/store/store';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome } from '../support/agent';
import { serverBundle } from '../support/paths';
import { until } from '../support/until';

describe('the conversation feed against the real server', function () {
  this.timeout(60_000);
  const model = useModelServer();
  let client: ServerClient;
  let server: FeedServer;
  let home: string;

  beforeEach(() => {
    home = agentHome('responses', model.baseUrl);
    client = new ServerClient({
      launch: () => ({
        command: process.execPath,
        args: [serverBundle, 'app-server'],
        env: { ...process.env, ...agentEnv, THREADLINE_HOME: home },
      }),
      clientInfo: { name: 'threadline_vscode', title: 'Threadline', version: '0.0.0' },
      log: { info() {}, warn() {}, error() {}, server() {} },
    });
    server = {
      request: (method, params) => client.request(method, params),
      resume: (threadId) => client.request('thread/resume', { threadId, excludeTurns: true }),
      onAnyNotification: (listener) => client.onNotification(listener),
    };
  });
  afterEach(() => client.dispose());

  function feedOf(threadId: string) {
    const posted: HostMessage[] = [];
    const store = new ConversationStore({
      schedule: (flush) => flush(),
      requestResync: () => assert.fail('no gap expected'),
    });
    const feed = new ThreadFeed(server, threadId, (m) => (posted.push(m), store.receive(m)), {
      kind: 'sidebar',
      restricted: false,
    });
    return { feed, posted, store };
  }

  async function turn(threadId: string, prompt: string): Promise<string> {
    const { turn } = await client.request('turn/start', {
      threadId,
      input: [{ type: 'text', text: prompt }],
    });
    return turn.id;
  }

  it('posts a snapshot, then numbered deltas that rebuild the streamed answer in the store', async () => {
    writeFileSync(
      join(home, 'requirements.toml'),
      'allowed_approval_policies = ["untrusted", "on-request"]\n',
    );
    model.script({ output: [{ text: ['Hel', 'lo', ' there'] }] });
    const { thread } = await client.request('thread/start', {});
    const { feed, posted, store } = feedOf(thread.id);
    await feed.snapshot();
    assert.equal(posted[0].type, 'snapshot');
    const turnId = await turn(thread.id, 'Say hello');
    await until(() => store.getState().turns[turnId]?.status === 'completed');

    const deltas = posted.filter((m) => m.type === 'delta');
    assert.deepEqual(
      deltas.map((m) => m.seq),
      deltas.map((_, i) => i + 1),
    );
    const methods = deltas.map((m) => m.notification.method);
    assert.ok(methods.includes('item/agentMessage/delta'));
    assert.ok(methods.includes('turn/completed'));
    const state = store.getState();
    const types = state.turns[turnId].itemKeys.map((k) => state.items[k].type);
    assert.deepEqual(types, ['userMessage', 'agentMessage']);
    assert.equal((state.items[state.turns[turnId].itemKeys[1]] as { text: string }).text, 'Hello there');
    assert.equal(state.settings?.model, 'test-model');
    assert.equal(state.settings?.sandbox.includes('-'), true, 'sandbox in the pickers’ spelling');
    // What requirements.toml forbids comes with the thread's settings, for the pickers to grey out.
    assert.deepEqual(Object.keys(state.settings?.forbidden ?? {}), ['never']);
    // And the permission profiles, each with its pair; one with a forbidden policy greyed out.
    assert.deepEqual(
      state.settings?.profiles?.map((p) => [p.id, p.label, p.approvalPolicy, p.sandbox, p.allowed]),
      [
        [':read-only', 'Read only', 'on-request', 'read-only', true],
        [':workspace', 'Workspace', 'on-request', 'workspace-write', true],
        [':danger-full-access', 'Full access', 'never', 'danger-full-access', false],
      ],
    );
    feed.dispose();
  });

  it('retitles a new thread by its first prompt and by a rename; not by later prompts', async () => {
    model.script({ output: [{ text: 'One.' }] }, { output: [{ text: 'Two.' }] });
    const { thread } = await client.request('thread/start', {});
    const { feed, store } = feedOf(thread.id);
    const titles: TitleParts[] = [];
    feed.onRetitle = (title) => titles.push(title);
    await feed.snapshot();
    for (const prompt of ['Plan the trip', 'And the budget']) {
      const turnId = await turn(thread.id, prompt);
      await until(() => store.getState().turns[turnId]?.status === 'completed');
    }
    await client.request('thread/name/set', { threadId: thread.id, name: 'Trip' });
    await until(() => titles.length === 2);
    assert.deepEqual(
      titles.map((t) => threadTitle(t)),
      ['Plan the trip', 'Trip'],
    );
    feed.dispose();
  });

  it('shows the newest turns first and pages older ones in, and ignores other threads', async () => {
    const total = turnsPerPage + 3;
    for (let i = 0; i < total; i++) model.script({ output: [{ text: `answer ${i}` }] });
    const { thread } = await client.request('thread/start', {});
    const { thread: other } = await client.request('thread/start', {});
    const completed = new Set<string>();
    client.onNotification(({ method, params }) => {
      if (method === 'turn/completed') completed.add(params.turn.id);
    });
    for (let i = 0; i < total; i++) {
      const id = await turn(thread.id, `question ${i}`);
      await until(() => completed.has(id));
    }
    const { feed, posted, store } = feedOf(thread.id);
    await feed.snapshot();
    const snapshot = posted[0];
    assert.equal(snapshot.type, 'snapshot');
    if (snapshot.type !== 'snapshot') return;
    assert.equal(snapshot.snapshot.turns.length, turnsPerPage);
    assert.equal(snapshot.snapshot.hasOlderTurns, true);
    const firstShown = snapshot.snapshot.turns[0].items[0] as { content: { text: string }[] };
    assert.equal(firstShown.content[0].text, 'question 3');

    assert.equal(await feed.loadOlder(), 3);
    assert.equal(store.getState().turnIds.length, total);
    assert.equal(store.getState().hasOlderTurns, false);
    assert.equal(await feed.loadOlder(), 0);

    await client.request('thread/name/set', { threadId: other.id, name: 'elsewhere' });
    await client.request('thread/name/set', { threadId: thread.id, name: 'here' });
    await until(() => store.getState().thread?.name === 'here');
    assert.ok(posted.every((m) => m.type !== 'delta' || m.threadId === thread.id));
    feed.dispose();
  });

  it('sends a long turn with its newest items, and pages its earlier ones in through thread/items/list', async () => {
    // One answer of many messages: a turn of more items than the view gets at first.
    const answers = itemsPerTurn + 30;
    model.script({ output: Array.from({ length: answers }, (_, i) => ({ text: `step ${i}` })) });
    const { thread } = await client.request('thread/start', {});
    const done = new Promise<void>((resolve) =>
      client.onNotification(({ method }) => method === 'turn/completed' && resolve()),
    );
    const turnId = await turn(thread.id, 'Do many steps');
    await done;
    const { feed, posted, store } = feedOf(thread.id);
    await feed.snapshot();
    const snapshot = posted[0];
    assert.ok(snapshot.type === 'snapshot');
    assert.deepEqual(snapshot.snapshot.earlierItems, [turnId]);
    assert.equal(snapshot.snapshot.turns[0].items.length, itemsPerTurn);
    const texts = () =>
      store
        .getState()
        .turns[turnId].itemKeys.map((key) => store.getState().items[key])
        .map((item) => (item.type === 'agentMessage' ? item.text : item.type));
    assert.equal(texts().at(-1), `step ${answers - 1}`);
    assert.ok(store.getState().rows.some((row) => row.kind === 'earlierItems'));

    // The user message and the first 30 answers come in one page, before the first one shown.
    const first = store.getState().items[store.getState().turns[turnId].itemKeys[0]];
    assert.equal(await feed.loadEarlierItems(turnId, first.id), 31);
    assert.deepEqual(texts().slice(0, 3), ['userMessage', 'step 0', 'step 1']);
    assert.equal(texts().length, answers + 1);
    assert.equal(new Set(texts()).size, answers + 1, 'no item twice');
    assert.equal(store.getState().turns[turnId].earlierItems, false);
    assert.ok(store.getState().rows.every((row) => row.kind !== 'earlierItems'));
    feed.dispose();
  });
});
