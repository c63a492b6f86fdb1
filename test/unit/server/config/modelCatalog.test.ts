// What we say about models the endpoints only name: efforts per family, hidden non-chat models,
// and unknown (local) models listed plainly.
import { strict as assert } from 'node:assert';
import { describeModel, fallbackModels } from '../../../../server/config/modelCatalog';

const efforts = (id: string) =>
  describeModel(id, 'P', false).supportedReasoningEfforts.map((e) => e.reasoningEffort);

describe('model catalog', () => {
  it('offers the reasoning efforts each family supports', () => {
    assert.deepEqual(efforts('gpt-5.1-codex-max'), ['low', 'medium', 'high', 'xhigh']);
    assert.deepEqual(efforts('gpt-5.1-codex'), ['low', 'medium', 'high']);
    assert.deepEqual(efforts('gpt-5'), ['minimal', 'low', 'medium', 'high']);
    assert.deepEqual(efforts('o4-mini'), ['low', 'medium', 'high']);
    assert.deepEqual(efforts('gpt-4.1'), []);
    assert.deepEqual(efforts('claude-opus-4-1-20250805'), ['none', 'low', 'medium', 'high']);
    assert.deepEqual(efforts('claude-3-5-haiku-20241022'), []);
    const codex = describeModel('gpt-5.1-codex-mini', 'OpenAI', false);
    assert.equal(codex.defaultReasoningEffort, 'medium');
    assert.ok(codex.supportedReasoningEfforts.every((e) => e.description.length > 0));
  });

  it('hides models that are not for chat, unless one is the configured model', () => {
    for (const id of [
      'text-embedding-3-large',
      'whisper-1',
      'gpt-4o-mini-tts',
      'dall-e-3',
      'gpt-4o-realtime-preview',
    ])
      assert.equal(describeModel(id, 'OpenAI', false).hidden, true, id);
    assert.equal(describeModel('gpt-4o', 'OpenAI', false).hidden, false);
    assert.equal(describeModel('whisper-1', 'OpenAI', true).hidden, false);
  });

  it('lists unknown models plainly, as text-only, with "none" as their effort', () => {
    const local = describeModel('qwen3-coder:30b', 'Ollama', true);
    assert.deepEqual(local, {
      id: 'qwen3-coder:30b',
      model: 'qwen3-coder:30b',
      displayName: 'qwen3-coder:30b',
      description: 'Served by Ollama',
      hidden: false,
      isDefault: true,
      supportedReasoningEfforts: [],
      defaultReasoningEffort: 'none',
      inputModalities: ['text'],
      upgrade: null,
    });
  });

  it('knows some models for OpenAI and Anthropic only', () => {
    assert.ok(fallbackModels('openai').includes('gpt-5.1-codex'));
    assert.ok(fallbackModels('anthropic').every((id) => id.startsWith('claude-')));
    assert.deepEqual(fallbackModels('ollama'), []);
    assert.deepEqual(fallbackModels('constructor'), []);
  });
});
