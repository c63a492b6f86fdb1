// Skipping one member of a JSON text unparsed (Responses' `response.completed` repeats the answer).
import { strict as assert } from 'node:assert';
import { jsonWithout } from '../../../../server/providers/jsonWithout';

const PATH = ['response', 'output'];

describe('jsonWithout', () => {
  it('drops the value under the path and keeps every other field, usage and id included', () => {
    const event = {
      type: 'response.completed',
      response: {
        id: 'resp_1',
        output: [{ type: 'message', content: [{ type: 'output_text', text: 'a "quoted" ] } [ {\\ text' }] }],
        usage: { input_tokens: 3, output_tokens: 5, total_tokens: 8 },
      },
    };
    const parsed = JSON.parse(jsonWithout(JSON.stringify(event, null, 1), PATH));
    assert.deepEqual(parsed, { ...event, response: { ...event.response, output: null } });
  });

  it('matches keys only where the path leads, not a field of the same name elsewhere', () => {
    const text = JSON.stringify({
      output: [1],
      response: { nested: { output: [2] }, output: [3], after: 'x' },
    });
    assert.deepEqual(JSON.parse(jsonWithout(text, PATH)), {
      output: [1],
      response: { nested: { output: [2] }, output: null, after: 'x' },
    });
  });

  it('leaves a text without the member, or with keys in strings only, as it is', () => {
    for (const text of [
      '{"response":{"id":"r","usage":null}}',
      '{"response":{"id":"\\"output\\":[1]"}}',
      '{"response":"output"}',
      '[{"response":{"output":[1]}}]',
    ])
      assert.equal(jsonWithout(text, PATH), text);
  });

  it('skips a value of megabytes, non-ASCII and escapes included', () => {
    const text = 'é😀\\"'.repeat(2_000_000);
    const json = JSON.stringify({ response: { output: [{ text }], usage: { total_tokens: 1 } } });
    assert.deepEqual(JSON.parse(jsonWithout(json, PATH)), {
      response: { output: null, usage: { total_tokens: 1 } },
    });
  });
});
