// The Anthropic Messages wire against the scripted model server: alternating messages of content
// blocks, thinking with its signature, tool_use and tool_result, prompt-cache breakpoints, usage.
import { strict as assert } from 'node:assert';
import type { ConversationEntry } from '../../../../server/providers/types';
import { useModelServer } from '../../../fixtures/modelServer/server';
import { hello, ofType, play, providerFor, requestWith, textOf } from './helpers';

const CACHE = { type: 'ephemeral' };

/** Every content block, system block and tool that carries a cache breakpoint, by where it is. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function breakpoints(body: any): string[] {
  const where: string[] = [];
  const mark = (place: string, block: { cache_control?: unknown }) => {
    if (block.cache_control) {
      assert.deepEqual(block.cache_control, CACHE);
      where.push(place);
    }
  };
  (body.tools ?? []).forEach((t: { name: string; cache_control?: unknown }) => mark(`tool ${t.name}`, t));
  (body.system ?? []).forEach((b: object, i: number) => mark(`system ${i}`, b));
  body.messages.forEach((m: { role: string; content: object[] }, i: number) =>
    m.content.forEach((b, j) => mark(`${m.role} ${i}.${j}`, b)),
  );
  return where;
}

describe('provider wire: anthropic', () => {
  const server = useModelServer();
  const provider = (maxTokens: number | null = null) => providerFor('anthropic', server, { maxTokens });

  it('streams text and counts cache reads and writes into the input', async () => {
    server.script({
      output: [{ text: ['Hel', 'lo'] }],
      usage: { input: 100, output: 7, cached: 60, cacheWrite: 30 },
    });
    const { events, error } = await play(provider(), requestWith(hello));
    assert.equal(error, null);
    assert.deepEqual(
      events.map((e) => e.type),
      ['messageStart', 'messageDelta', 'messageDelta', 'messageDone', 'completed'],
    );
    assert.equal(textOf(events), 'Hello');
    assert.deepEqual(ofType(events, 'completed')[0]!.usage, {
      inputTokens: 100,
      cachedInputTokens: 60,
      cacheWriteInputTokens: 30,
      outputTokens: 7,
      reasoningOutputTokens: 0,
      totalTokens: 107,
    });
    const body = server.requests[0]!.body;
    assert.equal(body.max_tokens, 8192);
    assert.equal(body.stream, true);
    assert.equal(body.thinking, undefined);
  });

  it('merges entries into alternating messages, with images as image blocks', async () => {
    server.script({ output: [{ text: 'ok' }] });
    const input: ConversationEntry[] = [
      { kind: 'developer', text: 'be brief' },
      {
        kind: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', url: 'data:image/png;base64,AAAA' },
          { type: 'image', url: 'https://example.com/a.png' },
        ],
      },
      { kind: 'assistant', text: 'seen' },
      { kind: 'assistant', text: 'twice' },
      { kind: 'user', content: [{ type: 'text', text: 'next' }] },
    ];
    await play(provider(), requestWith(input));
    const { messages } = server.requests[0]!.body;
    assert.deepEqual(
      messages.map((m: { role: string }) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.deepEqual(messages[0].content, [
      { type: 'text', text: 'be brief' },
      { type: 'text', text: 'look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' }, cache_control: CACHE },
    ]);
    assert.deepEqual(messages[1].content, [
      { type: 'text', text: 'seen' },
      { type: 'text', text: 'twice' },
    ]);
  });

  it('places cache breakpoints on the system prompt (after the tools) and the ends of the two newest user messages', async () => {
    server.script({ output: [{ text: 'ok' }] });
    const input: ConversationEntry[] = [
      ...hello,
      { kind: 'assistant', text: 'hi' },
      { kind: 'user', content: [{ type: 'text', text: 'a' }] },
      { kind: 'developer', text: 'b' },
      { kind: 'assistant', text: 'c' },
    ];
    await play(provider(), requestWith(input));
    assert.deepEqual(breakpoints(server.requests[0]!.body), ['system 0', 'user 0.0', 'user 2.1']);

    server.script({ output: [{ text: 'ok' }] });
    await play(provider(), requestWith(hello, { tools: [], instructions: '' }));
    const bare = server.requests[1]!.body;
    assert.equal(bare.system, undefined, 'an empty system prompt is left out');
    assert.deepEqual(breakpoints(bare), ['user 0.0']);
  });

  it('asks for thinking within max_tokens and replays it, signed, before the assistant content', async () => {
    server.script({
      output: [{ reasoning: { summary: [['Thin', 'king']], signature: 'sig-1' } }, { text: 'done' }],
    });
    const { events } = await play(provider(), requestWith(hello, { reasoningEffort: 'high' }));
    // high is 16k, but the budget must stay below the default max_tokens of 8192.
    assert.deepEqual(server.requests[0]!.body.thinking, { type: 'enabled', budget_tokens: 8192 - 1024 });
    assert.deepEqual(
      events.slice(0, 4).map((e) => e.type),
      ['reasoningStart', 'reasoningSummaryPartAdded', 'reasoningSummaryDelta', 'reasoningSummaryDelta'],
    );
    const entry = ofType(events, 'reasoningDone')[0]!.entry;
    assert.deepEqual(entry, { kind: 'reasoning', summary: ['Thinking'], content: [], signature: 'sig-1' });

    server.script({ output: [{ text: 'again' }] });
    const unsigned: ConversationEntry = { kind: 'reasoning', summary: ['lost'], content: [] };
    const history: ConversationEntry[] = [...hello, unsigned, entry, { kind: 'assistant', text: 'done' }];
    await play(provider(32_000), requestWith(history, { reasoningEffort: 'low' }));
    const body = server.requests[1]!.body;
    assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 2048 });
    assert.deepEqual(body.messages[1], {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Thinking', signature: 'sig-1' },
        { type: 'text', text: 'done' },
      ],
    });
  });

  it('sends no thinking when max_tokens leaves no room for a budget', async () => {
    server.script({ output: [{ text: 'ok' }] });
    await play(provider(1500), requestWith(hello, { reasoningEffort: 'medium' }));
    assert.equal(server.requests[0]!.body.thinking, undefined);
  });

  it('yields a tool_use as a function call and sends it back as tool_use and tool_result', async () => {
    const args = '{"city":"Paris"}';
    server.script({
      output: [{ toolCall: { name: 'get_weather', arguments: args, callId: 'toolu_1', chunks: 4 } }],
    });
    const { events } = await play(provider(), requestWith(hello));
    const [call] = ofType(events, 'toolCall');
    assert.deepEqual(call!.call, {
      kind: 'toolCall',
      callId: 'toolu_1',
      name: 'get_weather',
      arguments: args,
      custom: false,
    });

    server.script({ output: [{ text: 'sunny' }] });
    const result: ConversationEntry = {
      kind: 'toolResult',
      callId: 'toolu_1',
      output: 'no such city',
      custom: false,
      isError: true,
    };
    await play(provider(), requestWith([...hello, call!.call, result]));
    const { messages } = server.requests[1]!.body;
    assert.deepEqual(messages[1], {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
    });
    assert.deepEqual(messages[2], {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: 'no such city',
          is_error: true,
          cache_control: CACHE,
        },
      ],
    });
  });

  it('unwraps a freeform tool call and wraps it again as {input}', async () => {
    const patch = '*** Begin Patch\n*** End Patch';
    server.script({
      output: [{ toolCall: { name: 'apply_patch', arguments: patch, callId: 'toolu_p', custom: true } }],
    });
    const { events } = await play(provider(), requestWith(hello));
    const [call] = ofType(events, 'toolCall');
    assert.deepEqual(call!.call, {
      kind: 'toolCall',
      callId: 'toolu_p',
      name: 'apply_patch',
      arguments: patch,
      custom: true,
    });
    const tool = server.requests[0]!.body.tools[1];
    assert.deepEqual(tool.input_schema, {
      type: 'object',
      properties: { input: { type: 'string' } },
      required: ['input'],
    });

    server.script({ output: [{ text: 'applied' }] });
    const result: ConversationEntry = {
      kind: 'toolResult',
      callId: 'toolu_p',
      output: 'Done!',
      custom: true,
    };
    await play(provider(), requestWith([...hello, call!.call, result]));
    assert.deepEqual(server.requests[1]!.body.messages[1].content, [
      { type: 'tool_use', id: 'toolu_p', name: 'apply_patch', input: { input: patch } },
    ]);
  });

  describe('error events', () => {
    it('retries overloaded_error', async () => {
      server.script(
        { output: [{ text: 'part' }], streamError: { code: 'overloaded_error', message: 'Overloaded' } },
        { output: [{ text: 'ok' }] },
      );
      const { events, error } = await play(provider(), requestWith(hello));
      assert.equal(error, null);
      assert.equal(ofType(events, 'retrying')[0]!.error.kind, 'internalServerError');
    });

    it('does not retry invalid_request_error', async () => {
      server.script({ streamError: { code: 'invalid_request_error', message: 'bad' } });
      const { error } = await play(provider(), requestWith(hello));
      assert.equal(error?.kind, 'other');
      assert.equal(server.requests.length, 1);
    });
  });

  it('reports 529 overloaded as retryable', async () => {
    server.script(
      { httpError: { status: 529, code: 'overloaded_error', headers: { 'retry-after-ms': '1' } } },
      { output: [{ text: 'ok' }] },
    );
    const { events, error } = await play(provider(), requestWith(hello));
    assert.equal(error, null);
    assert.equal(ofType(events, 'retrying')[0]!.error.httpStatus, 529);
  });
});
