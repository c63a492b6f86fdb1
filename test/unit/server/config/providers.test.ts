// Model providers: the built-ins, [model_providers.<id>] overrides and additions, and entries with
// bad fields, which are skipped with a warning rather than stopping the server.
import { strict as assert } from 'node:assert';
import { resolveProviders } from '../../../../server/config/providers';
import { createLogger } from '../../../../server/log';

function resolve(section: unknown) {
  const lines: string[] = [];
  const providers = resolveProviders(
    section,
    createLogger('info', (line) => lines.push(line.trim())),
  );
  return { providers, lines };
}

describe('model providers', () => {
  it('has OpenAI, Ollama, LM Studio and Anthropic built in', () => {
    const { providers } = resolve(undefined);
    assert.deepEqual(providers.get('openai'), {
      id: 'openai',
      name: 'OpenAI',
      baseUrl: 'https://api.openai.com/v1',
      wireApi: 'responses',
      envKey: 'OPENAI_API_KEY',
      httpHeaders: {},
      queryParams: {},
      requestMaxRetries: 4,
      streamMaxRetries: 5,
      streamIdleTimeoutMs: 300_000,
      requiresOpenaiAuth: true,
      maxTokens: null,
    });
    const ollama = providers.get('ollama')!;
    assert.equal(ollama.baseUrl, 'http://localhost:11434/v1');
    assert.equal(ollama.wireApi, 'chat');
    assert.equal(ollama.envKey, null);
    assert.equal(providers.get('lmstudio')!.baseUrl, 'http://localhost:1234/v1');
    const anthropic = providers.get('anthropic')!;
    assert.equal(anthropic.baseUrl, 'https://api.anthropic.com/v1');
    assert.equal(anthropic.wireApi, 'anthropic');
    assert.equal(anthropic.envKey, 'ANTHROPIC_API_KEY');
    assert.equal(anthropic.maxTokens, 8192);
    assert.equal(anthropic.requiresOpenaiAuth, false);
  });

  it('adds providers and overrides fields of built-in ones', () => {
    const { providers, lines } = resolve({
      openai: { base_url: 'https://proxy.example/v1/', request_max_retries: 2 },
      vllm: {
        name: 'vLLM',
        base_url: 'http://gpu:8000/v1',
        wire_api: 'chat',
        env_key: 'VLLM_API_KEY',
        http_headers: { 'X-Team': 'a' },
        query_params: { 'api-version': '1' },
        stream_idle_timeout_ms: 1000,
        max_tokens: 4096,
        requires_openai_auth: false,
      },
    });
    const openai = providers.get('openai')!;
    assert.equal(openai.baseUrl, 'https://proxy.example/v1');
    assert.equal(openai.requestMaxRetries, 2);
    assert.equal(openai.envKey, 'OPENAI_API_KEY', 'fields not overridden stay');
    assert.equal(openai.requiresOpenaiAuth, true);
    assert.deepEqual(providers.get('vllm'), {
      id: 'vllm',
      name: 'vLLM',
      baseUrl: 'http://gpu:8000/v1',
      wireApi: 'chat',
      envKey: 'VLLM_API_KEY',
      httpHeaders: { 'X-Team': 'a' },
      queryParams: { 'api-version': '1' },
      requestMaxRetries: 4,
      streamMaxRetries: 5,
      streamIdleTimeoutMs: 1000,
      requiresOpenaiAuth: false,
      maxTokens: 4096,
    });
    assert.deepEqual(lines, []);
  });

  it('clamps absurd retry counts and timeouts', () => {
    const { providers } = resolve({
      local: {
        base_url: 'http://127.0.0.1:9/v1',
        request_max_retries: 1_000_000,
        stream_max_retries: 500,
        stream_idle_timeout_ms: 99_999_999_999,
      },
      quick: { base_url: 'http://127.0.0.1:9/v1', stream_idle_timeout_ms: 1 },
    });
    const local = providers.get('local')!;
    assert.equal(local.requestMaxRetries, 100);
    assert.equal(local.streamMaxRetries, 100);
    assert.equal(local.streamIdleTimeoutMs, 3_600_000);
    assert.equal(providers.get('quick')!.streamIdleTimeoutMs, 100);
    assert.equal(local.wireApi, 'chat', 'a new provider speaks chat unless told');
  });

  it('skips entries with bad fields, naming the provider and the field', () => {
    const { providers, lines } = resolve({
      grpc: { base_url: 'http://x/v1', wire_api: 'grpc' },
      nourl: { name: 'No URL' },
      ftp: { base_url: 'ftp://x/v1' },
      negative: { base_url: 'http://x/v1', request_max_retries: -1 },
      headers: { base_url: 'http://x/v1', http_headers: { 'X-N': 5 } },
      zero: { base_url: 'http://x/v1', max_tokens: 0 },
      flat: 'http://x/v1',
      fine: { base_url: 'http://x/v1', supports_websockets: true, env_key_instructions: 'ask' },
    });
    assert.deepEqual([...providers.keys()], ['openai', 'ollama', 'lmstudio', 'anthropic', 'fine']);
    const text = lines.join('\n');
    for (const expected of [
      /"grpc".*wire_api "grpc"/,
      /"nourl".*base_url is required/,
      /"ftp".*not an http\(s\) URL/,
      /"negative".*request_max_retries/,
      /"headers".*http_headers/,
      /"zero".*max_tokens/,
      /"flat".*must be a table/,
      /"fine" ignores supports_websockets$/m,
    ])
      assert.match(text, expected);
  });

  it('keeps the built-ins when [model_providers] is not a table', () => {
    const { providers, lines } = resolve(['openai']);
    assert.equal(providers.size, 4);
    assert.match(lines[0]!, /must be a table/);
  });
});
