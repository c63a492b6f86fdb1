// The Chat Completions wire against the scripted model server: messages built from entries, tool
// calls assembled from their streamed pieces, freeform tools wrapped and unwrapped, usage.
import { strict as assert } from 'node:assert';
import type { ConversationEntry } from '../../../../server/providers/types';
import { useModelServer } from '../../../fixtures/modelServer/server';
import { hello, ofType, play, providerFor, requestWith, textOf } from './helpers';

describe('provider wire: chat', () => {
  const server = useModelServer();
  const provider = (maxTokens: number | null = null) => providerFor('chat', server, { maxTokens });

  it('streams text, asks for usage and maps it', async () => {
    server.script({
      output: [{ text: ['Hel', 'lo'] }],
      usage: { input: 30, output: 6, cached: 10, reasoning: 2 },
    });
    const { events, error } = await play(provider(), requestWith(hello));
    assert.equal(error, null);
    assert.deepEqual(
      events.map((e) => e.type),
      ['messageStart', 'messageDelta', 'messageDelta', 'messageDone', 'completed'],
    );
    assert.equal(textOf(events), 'Hello');
    assert.deepEqual(ofType(events, 'completed')[0]!.usage, {
      inputTokens: 30,
      cachedInputTokens: 10,
      cacheWriteInputTokens: 0,
      outputTokens: 6,
      reasoningOutputTokens: 2,
      totalTokens: 36,
    });
    const body = server.requests[0]!.body;
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.max_tokens, undefined);
  });

  it('sends system, developer notes, images, tools, max_tokens and the output schema', async () => {
    server.script({ output: [{ text: 'ok' }] });
    const input: ConversationEntry[] = [
      { kind: 'developer', text: 'be brief' },
      {
        kind: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', url: 'https://example.com/a.png' },
        ],
      },
      { kind: 'assistant', text: 'seen' },
    ];
    await play(provider(4096), requestWith(input, { outputSchema: { type: 'object' } }));
    const body = server.requests[0]!.body;
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'be brief' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      },
      { role: 'assistant', content: 'seen' },
    ]);
    assert.equal(body.max_tokens, 4096);
    assert.deepEqual(body.response_format, {
      type: 'json_schema',
      json_schema: { name: 'output', schema: { type: 'object' }, strict: true },
    });
    assert.deepEqual(
      body.tools.map((t: { function: { name: string; parameters: unknown } }) => [
        t.function.name,
        t.function.parameters,
      ]),
      [
        ['get_weather', { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }],
        [
          'apply_patch',
          {
            type: 'object',
            properties: { input: { type: 'string', description: 'The raw input for this tool.' } },
            required: ['input'],
          },
        ],
      ],
    );
  });

  it('streams reasoning_content as a reasoning summary', async () => {
    server.script({ output: [{ reasoning: { summary: [['Thin', 'king']] } }, { text: 'done' }] });
    const { events } = await play(provider(), requestWith(hello, { reasoningEffort: 'medium' }));
    assert.equal(server.requests[0]!.body.reasoning_effort, 'medium');
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'reasoningStart',
        'reasoningSummaryPartAdded',
        'reasoningSummaryDelta',
        'reasoningSummaryDelta',
        'messageStart',
        'messageDelta',
        'reasoningDone',
        'messageDone',
        'completed',
      ],
    );
    assert.equal(
      ofType(events, 'reasoningSummaryDelta')
        .map((e) => e.delta)
        .join(''),
      'Thinking',
    );
  });

  it('assembles function calls streamed in pieces and sends them back with their outputs', async () => {
    server.script({
      output: [
        { toolCall: { name: 'get_weather', arguments: '{"city":"Paris"}', callId: 'call_a', chunks: 5 } },
        { toolCall: { name: 'get_weather', arguments: '{"city":"Oslo"}', callId: 'call_b', chunks: 3 } },
      ],
    });
    const { events } = await play(provider(), requestWith(hello));
    const calls = ofType(events, 'toolCall').map((e) => e.call);
    assert.deepEqual(calls, [
      {
        kind: 'toolCall',
        callId: 'call_a',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        custom: false,
      },
      {
        kind: 'toolCall',
        callId: 'call_b',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
        custom: false,
      },
    ]);

    server.script({ output: [{ text: 'sunny' }] });
    const results: ConversationEntry[] = [
      { kind: 'toolResult', callId: 'call_a', output: '18°C', custom: false },
      { kind: 'toolResult', callId: 'call_b', output: [{ type: 'text', text: '9°C' }], custom: false },
    ];
    await play(
      provider(),
      requestWith([...hello, { kind: 'assistant', text: 'checking' }, ...calls, ...results]),
    );
    assert.deepEqual(server.requests[1]!.body.messages.slice(2), [
      {
        role: 'assistant',
        content: 'checking',
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '18°C' },
      { role: 'tool', tool_call_id: 'call_b', content: '9°C' },
    ]);
  });

  it('unwraps a freeform tool call to its raw input and wraps it again for the next request', async () => {
    const patch = '*** Begin Patch\n*** End Patch';
    server.script({
      output: [{ toolCall: { name: 'apply_patch', arguments: patch, callId: 'call_p', custom: true } }],
    });
    const { events } = await play(provider(), requestWith(hello));
    const [call] = ofType(events, 'toolCall');
    assert.deepEqual(call!.call, {
      kind: 'toolCall',
      callId: 'call_p',
      name: 'apply_patch',
      arguments: patch,
      custom: true,
    });

    server.script({ output: [{ text: 'applied' }] });
    const result: ConversationEntry = { kind: 'toolResult', callId: 'call_p', output: 'Done!', custom: true };
    await play(provider(), requestWith([...hello, call!.call, result]));
    assert.deepEqual(server.requests[1]!.body.messages.slice(2), [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_p',
            type: 'function',
            function: { name: 'apply_patch', arguments: JSON.stringify({ input: patch }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_p', content: 'Done!' },
    ]);
  });

  it('classifies an error chunk in the stream', async () => {
    server.script({
      output: [{ text: 'part' }],
      streamError: { code: 'context_length_exceeded', message: 'too many tokens' },
    });
    const { error } = await play(provider(), requestWith(hello));
    assert.equal(error?.kind, 'contextWindowExceeded');
  });

  it('treats a stream cut before its finish reason as a disconnect', async () => {
    // The role chunk and both deltas arrive; the finish chunk, the usage chunk and [DONE] do not.
    const cut = { output: [{ text: ['a', 'b'] }], cutAfterEvents: 3 };
    server.script(cut, cut, cut);
    const { error } = await play(provider(), requestWith(hello));
    assert.equal(error?.kind, 'responseStreamDisconnected');
  });
});
