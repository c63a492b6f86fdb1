// Full-text search through thread/list's searchTerm, against the real server over stdio: a fixture
// corpus of rollouts ranks as a user expects (a word only in the middle of a long thread is found,
// with the turn and a snippet; an exact phrase beats the same words scattered), filters still
// apply, pages follow one ranking, and a turn that completes is searchable at once.
import { strict as assert } from 'node:assert';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, runTurn, startThread } from '../support/agent';
import { writeRollout, type FixtureTurn } from '../support/rollouts';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';

interface Listed {
  data: { id: string; searchMatch?: { turnId: string | null; snippet: string } }[];
  nextCursor: string | null;
}

const filler = (i: number) => ({
  id: `turn-${i}`,
  userText: `Please look at step ${i} of the build and tell me what happens there.`,
  answer: `Step ${i} compiles the sources and copies the assets; nothing unusual in it.`,
});

describe('thread search', function () {
  this.timeout(30_000);
  const start = useServers();
  const search = (server: ServerProcess, searchTerm: string, extra: Record<string, unknown> = {}) =>
    server.call<Listed>('thread/list', { searchTerm, ...extra });

  describe('on a fixture corpus', () => {
    let home: string;
    const ids: Record<string, string> = {};
    beforeEach(() => {
      home = tempDir('threadline-search-');
      const long: FixtureTurn[] = Array.from({ length: 40 }, (_, i) => filler(i));
      long[21] = {
        ...long[21]!,
        answer: 'Found it: the zanzibar cache was stale, so the build reused old assets.',
      };
      ids.long = writeRollout(home, { cwd: '/work/a', turns: long, createdAtMs: Date.now() - 50_000 }).id;
      // The phrase, in a thread made longer than the scattered one (length alone would rank it lower).
      ids.phrase = writeRollout(home, {
        cwd: '/work/a',
        createdAtMs: Date.now() - 40_000,
        turns: [
          ...Array.from({ length: 6 }, (_, i) => filler(i)),
          {
            id: 'p',
            userText: 'Why did the upload stop?',
            answer: 'The retry budget exhausted after five attempts.',
          },
        ],
      }).id;
      ids.scattered = writeRollout(home, {
        cwd: '/work/a',
        createdAtMs: Date.now() - 30_000,
        turns: [
          { id: 's1', userText: 'Should we retry?', answer: 'The budget is fine.' },
          { id: 's2', userText: 'And the quota?', answer: 'Nothing is exhausted.' },
        ],
      }).id;
      ids.elsewhere = writeRollout(home, {
        cwd: '/work/b',
        createdAtMs: Date.now() - 20_000,
        turns: [{ id: 'e', userText: 'zanzibar again', answer: 'Yes, zanzibar.' }],
      }).id;
      ids.named = writeRollout(home, {
        cwd: '/work/a',
        name: 'Zanzibar notes',
        createdAtMs: Date.now() - 10_000,
        turns: [{ id: 'n', userText: 'hello', answer: 'hi' }],
      }).id;
    });

    it('finds a word said only in the middle of a long thread, with its turn and a snippet', async () => {
      const server = await start(home, 'threadline_vscode', {}, { experimentalApi: true });
      const { data } = await search(server, 'zanzibar', { cwd: '/work/a' });
      assert.deepEqual(
        data.map((t) => t.id),
        [ids.named, ids.long],
        'the name weighs more; the other folder is filtered out',
      );
      const long = data.find((t) => t.id === ids.long)!;
      assert.equal(long.searchMatch?.turnId, 'turn-21');
      assert.match(long.searchMatch!.snippet, /the zanzibar cache was stale/);
      // Typing the start of a word already finds it.
      assert.ok((await search(server, 'zanzi', { cwd: '/work/a' })).data.some((t) => t.id === ids.long));
      server.assertSchemaClean();
    });

    it('ranks the exact phrase above the same words scattered', async () => {
      const server = await start(home, 'threadline_vscode', {}, { experimentalApi: true });
      const { data } = await search(server, 'retry budget exhausted');
      assert.deepEqual(
        data.map((t) => t.id),
        [ids.phrase, ids.scattered],
      );
      assert.equal(data[0]!.searchMatch?.turnId, 'p');
      assert.match(data[0]!.searchMatch!.snippet, /retry budget exhausted after five attempts/);
      assert.deepEqual((await search(server, 'budget nonexistentword')).data, [], 'every word must occur');
    });

    it('pages through one ranking, and sends snippets only to clients that opted in', async () => {
      const server = await start(home, 'threadline_vscode');
      const first = await search(server, 'zanzibar', { limit: 1, sourceKinds: [] });
      assert.equal(first.data.length, 1);
      assert.equal(first.data[0]!.searchMatch, undefined);
      const second = await search(server, 'zanzibar', { limit: 1, cursor: first.nextCursor });
      const third = await search(server, 'zanzibar', { limit: 1, cursor: second.nextCursor });
      const seen = [first, second, third].flatMap((page) => page.data.map((t) => t.id));
      assert.deepEqual(new Set(seen), new Set([ids.named, ids.long, ids.elsewhere]));
      assert.equal(third.nextCursor, null);
      const bad = await server.request('thread/list', { searchTerm: 'zanzibar', cursor: 'bm9wZQ' });
      assert.equal(bad.error?.code, -32602);
      server.assertSchemaClean();
    });

    it('rebuilds the index from the rollouts when its file is missing', async () => {
      // What an earlier version saved (MiniSearch) is another format: replaced, then removed.
      writeFileSync(join(home, 'search-index.json'), '{"format":1,"indexedAt":[],"index":{}}');
      const server = await start(home, 'threadline_vscode');
      assert.equal((await search(server, 'zanzibar')).data.length, 3);
      await server.stop();
      const file = join(home, 'search-index');
      assert.ok(existsSync(file), 'the index is saved at shutdown');
      assert.equal(existsSync(join(home, 'search-index.json')), false);
      rmSync(file);
      const again = await start(home, 'threadline_vscode');
      assert.equal((await search(again, 'zanzibar')).data.length, 3);
    });
  });

  describe('as turns complete', () => {
    const model = useModelServer();

    it('finds what a turn said as soon as it completed', async () => {
      const home = agentHome('responses', model.baseUrl);
      model.script({ output: [{ text: 'We should use marmalade here.' }] });
      const server = await start(home, 'threadline_vscode', agentEnv, { experimentalApi: true });
      const threadId = await startThread(server, tempDir('threadline-cwd-'));
      await runTurn(server, threadId, 'What should we use?');
      assert.deepEqual(
        (await search(server, 'marmalade')).data.map((t) => t.id),
        [threadId],
      );
      // The index is in memory now; the next turn is added to it when it completes.
      model.script({ output: [{ text: 'Then a quasar would do.' }] });
      const second = await runTurn(server, threadId, 'And then?');
      const { data } = await search(server, 'quasar');
      assert.deepEqual(
        data.map((t) => t.id),
        [threadId],
      );
      assert.equal(data[0]!.searchMatch?.turnId, second.id);
    });
  });
});
