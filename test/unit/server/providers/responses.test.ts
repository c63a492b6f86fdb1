// The Responses wire against the scripted model server: what the request body says and how the
// typed stream events become model events, round trips of reasoning and tool calls included.
import { strict as assert } from 'node:assert';
import type { ConversationEntry } from '../../../../server/providers/types';
import { useModelServer } from '../../../fixtures/modelServer/server';
import { hello, ofType, play, providerFor, requestWith, textOf } from './helpers';

describe('provider wire: responses', () => {
  const server = useModelServer();
  const provider = () => providerFor('responses', server);

  it('streams text and maps the usage, cached and reasoning tokens included', async () => {
    server.script({
      output: [{ text: ['Hel', 'lo'] }],
      usage: { input: 20, output: 4, cached: 5, reasoning: 3 },
    });
    const { events, error } = await play(provider(), requestWith(hello));
    assert.equal(error, null);
    assert.deepEqual(
      events.map((e) => e.type),
      ['messageStart', 'messageDelta', 'messageDelta', 'messageDone', 'completed'],
    );
    assert.equal(textOf(events), 'Hello');
    assert.equal(ofType(events, 'messageDone')[0]!.text, 'Hello');
    assert.deepEqual(ofType(events, 'completed')[0]!.usage, {
      inputTokens: 20,
      cachedInputTokens: 5,
      cacheWriteInputTokens: 0,
      outputTokens: 4,
      reasoningOutputTokens: 3,
      totalTokens: 24,
    });
  });

  it('sends instructions, input items, tools and the request settings', async () => {
    server.script({ output: [{ text: 'ok' }] });
    const input: ConversationEntry[] = [
      { kind: 'developer', text: 'be brief' },
      {
        kind: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', url: 'data:image/png;base64,AAAA' },
        ],
      },
      { kind: 'assistant', text: 'seen' },
    ];
    await play(provider(), requestWith(input, { outputSchema: { type: 'object' } }));
    const body = server.requests[0]!.body;
    assert.equal(body.instructions, 'You are a test.');
    assert.equal(body.store, false);
    assert.equal(body.stream, true);
    assert.equal(body.prompt_cache_key, 'thread-1');
    assert.equal(body.parallel_tool_calls, true);
    assert.equal(body.reasoning, undefined);
    assert.equal(body.include, undefined);
    assert.deepEqual(body.input, [
      { role: 'developer', content: 'be brief' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
        ],
      },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'seen', annotations: [] }],
      },
    ]);
    assert.deepEqual(body.tools, [
      {
        type: 'function',
        name: 'get_weather',
        description: 'The weather in a city.',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        strict: false,
      },
      {
        type: 'custom',
        name: 'apply_patch',
        description: 'Applies a patch.',
        format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' },
      },
    ]);
    assert.deepEqual(body.text.format, {
      type: 'json_schema',
      name: 'output',
      schema: { type: 'object' },
      strict: true,
    });
  });

  it('streams reasoning summaries and raw text, and replays the encrypted reasoning next time', async () => {
    server.script({
      output: [
        {
          reasoning: {
            summary: [['Thin', 'king'], ['More']],
            content: ['raw ', 'thought'],
            encryptedContent: 'enc-1',
          },
        },
        { text: 'done' },
      ],
    });
    const { events } = await play(provider(), requestWith(hello, { reasoningEffort: 'high' }));
    const body = server.requests[0]!.body;
    assert.deepEqual(body.reasoning, { effort: 'high', summary: 'auto' });
    assert.deepEqual(body.include, ['reasoning.encrypted_content']);
    const key = ofType(events, 'reasoningStart')[0]!.key;
    assert.deepEqual(
      ofType(events, 'reasoningSummaryPartAdded').map((e) => [e.key, e.summaryIndex]),
      [
        [key, 0],
        [key, 1],
      ],
    );
    assert.deepEqual(
      ofType(events, 'reasoningSummaryDelta').map((e) => [e.summaryIndex, e.delta]),
      [
        [0, 'Thin'],
        [0, 'king'],
        [1, 'More'],
      ],
    );
    assert.equal(
      ofType(events, 'reasoningTextDelta')
        .map((e) => e.delta)
        .join(''),
      'raw thought',
    );
    const entry = ofType(events, 'reasoningDone')[0]!.entry;
    assert.deepEqual(entry, {
      kind: 'reasoning',
      summary: ['Thinking', 'More'],
      content: ['raw thought'],
      encryptedContent: 'enc-1',
      providerItemId: key,
    });

    server.script({ output: [{ text: 'again' }] });
    const unreplayable: ConversationEntry = { kind: 'reasoning', summary: ['x'], content: [] };
    await play(provider(), requestWith([...hello, entry, unreplayable, { kind: 'assistant', text: 'done' }]));
    const replayed = server.requests[1]!.body.input.filter((i: { type?: string }) => i.type === 'reasoning');
    assert.deepEqual(replayed, [
      {
        type: 'reasoning',
        id: key,
        summary: [
          { type: 'summary_text', text: 'Thinking' },
          { type: 'summary_text', text: 'More' },
        ],
        encrypted_content: 'enc-1',
      },
    ]);
  });

  it('asks for reasoning without summaries when the summary setting is none', async () => {
    server.script({ output: [{ text: 'ok' }] });
    await play(provider(), requestWith(hello, { reasoningEffort: 'low', reasoningSummary: 'none' }));
    assert.deepEqual(server.requests[0]!.body.reasoning, { effort: 'low' });
  });

  it('yields a function call whole and sends it back with its output', async () => {
    const args = '{"city":"Paris"}';
    server.script({
      output: [{ toolCall: { name: 'get_weather', arguments: args, callId: 'call_1', chunks: 4 } }],
    });
    const { events } = await play(provider(), requestWith(hello));
    const [call] = ofType(events, 'toolCall');
    assert.deepEqual(call!.call, {
      kind: 'toolCall',
      callId: 'call_1',
      name: 'get_weather',
      arguments: args,
      custom: false,
    });

    server.script({ output: [{ text: 'sunny' }] });
    const result: ConversationEntry = { kind: 'toolResult', callId: 'call_1', output: '18°C', custom: false };
    await play(provider(), requestWith([...hello, call!.call, result]));
    assert.deepEqual(server.requests[1]!.body.input.slice(1), [
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: args },
      { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
    ]);
  });

  it('yields a custom tool call with its raw input and sends it back as custom items', async () => {
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch';
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
    assert.deepEqual(server.requests[1]!.body.input.slice(1), [
      { type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: patch },
      { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Done!' },
    ]);
  });

  describe('response.failed', () => {
    const cases: [string, string, string][] = [
      ['context_length_exceeded', 'Your input exceeds the context window', 'contextWindowExceeded'],
      ['insufficient_quota', 'You exceeded your current quota', 'usageLimitExceeded'],
      ['invalid_prompt', 'Invalid prompt', 'other'],
    ];
    for (const [code, message, kind] of cases) {
      it(`${code} → ${kind}, not retried`, async () => {
        server.script({ output: [{ text: 'part' }], streamError: { code, message } });
        const { events, error } = await play(provider(), requestWith(hello));
        assert.equal(error?.kind, kind);
        assert.equal(error?.details, `code: ${code}`);
        assert.equal(ofType(events, 'retrying').length, 0);
      });
    }

    it('retries server_error and rate_limit_exceeded, then gives up with responseTooManyFailedAttempts', async () => {
      const fail = (code: string) => ({ streamError: { code, message: 'try again' } });
      server.script(fail('server_error'), fail('rate_limit_exceeded'), fail('server_error'));
      const { events, error } = await play(provider(), requestWith(hello));
      assert.deepEqual(
        ofType(events, 'retrying').map((e) => e.error.kind),
        ['internalServerError', 'internalServerError'],
      );
      assert.equal(error?.kind, 'responseTooManyFailedAttempts');
    });
  });
});
