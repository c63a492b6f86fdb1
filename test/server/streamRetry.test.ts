// A model stream cut off mid-answer (or mid-reasoning) and retried: the client ends up with one
// item holding the whole text, streamed once (no text twice), and so do thread/read and a resume
// after a restart. A retry that says something else: the item stops streaming and completes with
// the retry's text. Each wire format, against the scripted model server over real HTTP.
import { strict as assert } from 'node:assert';
import type { AgentMessageItem } from '../../server/protocol/items';
import type { Thread, Turn } from '../../server/protocol/thread';
import { useModelServer } from '../fixtures/modelServer/server';
import type { WireFormat } from '../fixtures/modelServer/scenario';
import { agentEnv, agentHome, completedItems, runTurn, startThread } from '../support/agent';
import { useServers, type ServerProcess } from '../support/serverProcess';

const WIRES: WireFormat[] = ['responses', 'chat', 'anthropic'];
// Cut right after the second text delta, whatever each wire sends before its first.
const AFTER_TWO_DELTAS = { responses: 6, chat: 3, anthropic: 5 };
const ANSWER = ['The answer ', 'is forty-two, ', 'as computed ', 'before.'];

for (const wire of WIRES) {
  describe(`a stream cut mid-answer and retried, over the ${wire} wire`, function () {
    const model = useModelServer();
    const start = useServers();

    /** The text the client built from the deltas of each agent message, by item id. */
    function streamed(server: ServerProcess): Map<string, string> {
      const texts = new Map<string, string>();
      for (const m of server.notifications('item/agentMessage/delta')) {
        const { itemId, delta } = m.params as { itemId: string; delta: string };
        texts.set(itemId, (texts.get(itemId) ?? '') + delta);
      }
      return texts;
    }

    const answers = (turns: Turn[]) =>
      turns.flatMap((t) =>
        t.items.filter((i) => i.type === 'agentMessage').map((i) => (i as AgentMessageItem).text),
      );

    async function cutThenRetried(retry: string[]) {
      model.script(
        { output: [{ text: ANSWER }], cutAfterEvents: AFTER_TWO_DELTAS[wire] },
        { output: [{ text: retry }] },
      );
      const home = agentHome(wire, model.baseUrl, { streamMaxRetries: 1 });
      const server = await start(home, 'threadline_vscode', agentEnv);
      const threadId = await startThread(server);
      const done = await runTurn(server, threadId, 'What is the answer?');
      assert.equal(done.status, 'completed');
      assert.equal(model.requests.length, 2, 'the cut stream was retried');
      const retries = server
        .notifications('error')
        .map((m) => (m.params as { willRetry: boolean }).willRetry);
      assert.deepEqual(retries, [true]);
      const messages = completedItems(server, done.id).filter((i) => i.type === 'agentMessage');
      assert.equal(messages.length, 1, 'one completed agent message, no cut-off copy');
      const started = server
        .notifications('item/started')
        .filter((m) => (m.params as { item: { type: string } }).item.type === 'agentMessage');
      assert.equal(started.length, 1, 'the retry continues the item the client already has');
      return { server, home, threadId, message: messages[0] as AgentMessageItem };
    }

    async function storedAnswers(server: ServerProcess, home: string, threadId: string, expected: string) {
      const read = await server.call<{ thread: Thread }>('thread/read', { threadId, includeTurns: true });
      assert.deepEqual(answers(read.thread.turns), [expected]);
      await server.stop();
      const again = await start(home, 'threadline_vscode', agentEnv);
      const resumed = await again.call<{ thread: Thread }>('thread/resume', { threadId });
      assert.deepEqual(answers(resumed.thread.turns), [expected]);
    }

    it('streams the answer once: the retry sends only what the client lacks, under the same item', async () => {
      const { server, home, threadId, message } = await cutThenRetried(ANSWER);
      const full = ANSWER.join('');
      assert.equal(message.text, full);
      assert.deepEqual([...streamed(server)], [[message.id, full]], 'the deltas add up to the answer, once');
      await storedAnswers(server, home, threadId, full);
    });

    it('completes the item with the retry’s text when the retry says something else', async () => {
      const retry = ['Let me think again: ', 'it is 42.'];
      const { server, home, threadId, message } = await cutThenRetried(retry);
      const full = retry.join('');
      assert.equal(message.text, full);
      // What streamed before the cut cannot be taken back by deltas; nothing contradicting it is added.
      assert.deepEqual([...streamed(server)], [[message.id, ANSWER.slice(0, 2).join('')]]);
      await storedAnswers(server, home, threadId, full);
    });
  });
}

describe('a stream cut mid-reasoning and retried, over the responses wire', function () {
  const model = useModelServer();
  const start = useServers();

  it('continues the reasoning item: one completed, its summary streamed once', async () => {
    const output = [{ reasoning: { summary: [['Think ', 'hard ', 'now']] } }, { text: 'Done.' }];
    // Cut after the second summary delta.
    model.script({ output, cutAfterEvents: 6 }, { output });
    const home = agentHome('responses', model.baseUrl, { streamMaxRetries: 1 });
    const server = await start(home, 'threadline_vscode', agentEnv);
    const threadId = await startThread(server);
    const done = await runTurn(server, threadId, 'Think first');
    assert.equal(done.status, 'completed');
    const types = completedItems(server, done.id).map((i) => i.type);
    assert.deepEqual(types, ['userMessage', 'reasoning', 'agentMessage']);
    const started = server
      .notifications('item/started')
      .filter((m) => (m.params as { item: { type: string } }).item.type === 'reasoning');
    assert.equal(started.length, 1);
    const summary = server
      .notifications('item/reasoning/summaryTextDelta')
      .map((m) => (m.params as { delta: string }).delta)
      .join('');
    assert.equal(summary, 'Think hard now');
    assert.equal(server.notifications('item/reasoning/summaryPartAdded').length, 1);
    const read = await server.call<{ thread: Thread }>('thread/read', { threadId, includeTurns: true });
    const reasoning = read.thread.turns[0]!.items.filter((i) => i.type === 'reasoning');
    assert.deepEqual(
      reasoning.map((i) => (i as { summary: string[] }).summary),
      [['Think hard now']],
    );
  });
});
