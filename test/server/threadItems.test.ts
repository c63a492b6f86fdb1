// thread/items/list and thread/inject_items through the built server: results checked against the
// reference schema (Codex 0.169), bad params answered -32602 and unknown threads a clear error.
// items/list pages through a thread of several turns both ways; injected items reach the scripted
// model in the next turn's request, appended after everything sent before (each request a prefix of
// the next, as the prompt cache needs), and still after a restart.
import { strict as assert } from 'node:assert';
import { useModelServer } from '../fixtures/modelServer/server';
import type { RecordedRequest } from '../fixtures/modelServer/scenario';
import { agentEnv, agentHome, runTurn, startThread, startTurn, turnCompleted } from '../support/agent';
import { validateServerMessage } from '../support/codexSchema';
import { assertEachExtendsPrevious, checkedCall, errorOf, inputOf } from '../support/referenceCalls';
import { tempDir, useServers } from '../support/serverProcess';

interface Entry {
  turnId: string;
  item: { id: string; type: string; text?: string };
}
interface Page {
  data: Entry[];
  nextCursor: string | null;
  backwardsCursor: string | null;
}

const userText = (text: string) => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});

describe('thread items: list and inject', () => {
  const model = useModelServer();
  const start = useServers();

  it('checks results against the reference schema for real (a wrong page is caught)', () => {
    assert.notDeepEqual(validateServerMessage({ id: 1, result: { items: [] } }, 'thread/items/list'), []);
    const noTurn = { id: 2, result: { data: [{ item: { type: 'plan', id: 'x', text: '' } }] } };
    assert.notDeepEqual(validateServerMessage(noTurn, 'thread/items/list'), []);
  });

  it('pages through the items of a thread of several turns, both ways and within one turn', async () => {
    const home = agentHome('responses', model.baseUrl);
    const server = await start(home, 'threadline_vscode', agentEnv);
    const threadId = await startThread(server, tempDir('threadline-cwd-'));
    model.script({ output: [{ text: 'A1' }] }, { output: [{ text: 'A2' }] }, { output: [{ text: 'A3' }] });
    const turnIds: string[] = [];
    for (const text of ['q1', 'q2', 'q3']) {
      const turn = await runTurn(server, threadId, text);
      assert.equal(turn.status, 'completed');
      turnIds.push(turn.id);
    }
    const all = await checkedCall<Page>(server, 'thread/items/list', { threadId, limit: 100 });
    assert.deepEqual(
      all.data.map((e) => [e.turnId, e.item.type]),
      turnIds.flatMap((id) => [
        [id, 'userMessage'],
        [id, 'agentMessage'],
      ]),
    );
    assert.deepEqual(
      all.data.filter((e) => e.item.type === 'agentMessage').map((e) => e.item.text),
      ['A1', 'A2', 'A3'],
    );
    assert.equal(all.nextCursor, null);

    // Two at a time, ascending: three pages, in order, nothing repeated.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = await checkedCall(server, 'thread/items/list', { threadId, limit: 2, cursor });
      seen.push(...page.data.map((e) => e.item.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(
      seen,
      all.data.map((e) => e.item.id),
    );

    // Descending, and back again with the backwards cursor.
    const newest = await checkedCall<Page>(server, 'thread/items/list', {
      threadId,
      limit: 2,
      sortDirection: 'desc',
    });
    assert.deepEqual(
      newest.data.map((e) => e.item.id),
      all.data
        .slice(-2)
        .reverse()
        .map((e) => e.item.id),
    );
    const older = await checkedCall<Page>(server, 'thread/items/list', {
      threadId,
      limit: 2,
      sortDirection: 'desc',
      cursor: newest.nextCursor,
    });
    assert.deepEqual(
      older.data.map((e) => e.item.id),
      all.data
        .slice(2, 4)
        .reverse()
        .map((e) => e.item.id),
    );
    const forward = await checkedCall<Page>(server, 'thread/items/list', {
      threadId,
      sortDirection: 'asc',
      cursor: older.backwardsCursor,
    });
    assert.deepEqual(
      forward.data.map((e) => e.item.id),
      all.data.slice(4).map((e) => e.item.id),
    );

    // One turn, from an item anchor.
    const second = all.data.filter((e) => e.turnId === turnIds[1]);
    const inTurn = await checkedCall<Page>(server, 'thread/items/list', { threadId, turnId: turnIds[1] });
    assert.deepEqual(inTurn.data, second);
    const after = await checkedCall<Page>(server, 'thread/items/list', {
      threadId,
      turnId: turnIds[1],
      cursor: { type: 'item', itemId: second[0]!.item.id },
    });
    assert.deepEqual(after.data, second.slice(1));
  });

  it('appends injected items to what the model sees next turn, never rewriting earlier requests, also after a restart', async () => {
    const home = agentHome('responses', model.baseUrl);
    const first = await start(home, 'threadline_vscode', agentEnv);
    const threadId = await startThread(first, tempDir('threadline-cwd-'));
    model.script(
      { output: [{ text: 'One.' }] },
      { output: [{ text: 'Two.' }], delayMs: 1500 },
      { output: [{ text: 'Three.' }] },
    );
    // Into a thread with no turns yet: they come before the first message.
    assert.deepEqual(
      await checkedCall(first, 'thread/inject_items', {
        threadId,
        items: [userText('seeded before any turn')],
      }),
      {},
    );
    assert.equal((await runTurn(first, threadId, 'one')).status, 'completed');
    await checkedCall(first, 'thread/inject_items', {
      threadId,
      items: [
        userText('injected after one'),
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'noted' }] },
      ],
    });
    const running = await startTurn(first, threadId, 'two');
    const refused = await errorOf(first, 'thread/inject_items', { threadId, items: [userText('mid-turn')] });
    assert.match(refused.message, /a turn is running on thread/);
    assert.equal((await turnCompleted(first, running.id)).status, 'completed');
    await checkedCall(first, 'thread/inject_items', { threadId, items: [userText('injected after two')] });
    await first.stop();

    const second = await start(home, 'threadline_vscode', agentEnv);
    await second.call('thread/resume', { threadId });
    assert.equal((await runTurn(second, threadId, 'three')).status, 'completed');

    const requests = model.requests;
    assert.equal(requests.length, 3);
    assertEachExtendsPrevious(requests);
    const texts = (request: RecordedRequest) => JSON.stringify(inputOf(request));
    const order = (request: RecordedRequest, words: string[]) =>
      words.map((word) => texts(request).indexOf(word));
    const ascending = (positions: number[]) =>
      positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!));
    assert.ok(ascending(order(requests[0]!, ['seeded before any turn', '"one"'])), texts(requests[0]!));
    assert.ok(
      ascending(order(requests[1]!, ['One.', 'injected after one', 'noted', '"two"'])),
      texts(requests[1]!),
    );
    assert.ok(ascending(order(requests[2]!, ['Two.', 'injected after two', '"three"'])), 'after the restart');
    assert.doesNotMatch(texts(requests[2]!), /mid-turn/, 'the refused items were not stored');
  });

  it('answers -32602 to bad params and a clear error for an unknown thread', async () => {
    const server = await start(tempDir('threadline-home-'));
    const threadId = await startThread(server, tempDir('threadline-cwd-'));
    const bad: [string, unknown][] = [
      ['thread/items/list', {}],
      ['thread/items/list', { threadId, limit: -1 }],
      ['thread/items/list', { threadId, sortDirection: 'up' }],
      ['thread/items/list', { threadId, cursor: 'not-ours' }],
      ['thread/items/list', { threadId, cursor: { type: 'item', itemId: 'x' } }], // an anchor needs a turnId
      ['thread/items/list', { threadId, turnId: 'no-such-turn' }],
      ['thread/inject_items', { threadId }],
      ['thread/inject_items', { threadId, items: 'text' }],
      ['thread/inject_items', { items: [] }],
      ['thread/inject_items', { threadId, items: [{ type: 'web_search_call' }] }],
      ['thread/inject_items', { threadId, items: [userText('fine'), 42] }],
    ];
    for (const [method, params] of bad) {
      const error = await errorOf(server, method, params);
      assert.equal(error.code, -32602, `${method} ${JSON.stringify(params)}: ${error.message}`);
    }
    assert.match(
      (await errorOf(server, 'thread/inject_items', { threadId, items: [1] })).message,
      /items\[0\]/,
    );
    const unknown = '00000000-0000-7000-8000-000000000000';
    for (const [method, params] of [
      ['thread/items/list', { threadId: unknown }],
      ['thread/inject_items', { threadId: unknown, items: [userText('x')] }],
    ] as const) {
      assert.match(
        (await errorOf(server, method, params)).message,
        new RegExp(`thread not found: ${unknown}`),
        method,
      );
    }
  });
});
