import { strict as assert } from 'node:assert';
import { redactSecrets, redactText } from '../../../../extension/client/redact';

describe('secrets in traced messages', () => {
  it('replaces credential fields at any depth and leaves the rest', () => {
    const message = {
      id: 3,
      method: 'account/login/start',
      params: { type: 'apiKey', apiKey: 'abc123', nested: [{ Authorization: 'Basic xyz' }], api_key: null },
    };
    assert.deepEqual(redactSecrets(message), {
      id: 3,
      method: 'account/login/start',
      params: {
        type: 'apiKey',
        apiKey: '[redacted]',
        nested: [{ Authorization: '[redacted]' }],
        api_key: null,
      },
    });
    assert.equal(message.params.apiKey, 'abc123', 'the original is untouched');
  });

  it('replaces key-shaped strings inside free text', () => {
    assert.equal(
      redactText('failed with sk-proj-ABCDEFGH12345 and Bearer abcdefghijklmnop, model gpt-5'),
      'failed with [redacted] and [redacted], model gpt-5',
    );
    assert.equal(redactText('sk-ant-api03-xxxxxxxxxxxx'), '[redacted]');
    assert.equal(redactText('a task-list of 3 items'), 'a task-list of 3 items');
  });
});
