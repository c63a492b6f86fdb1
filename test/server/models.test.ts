// model/list and modelProvider/list over stdio: models come from the provider's models endpoint
// (the scripted model server), are cached, paged by cursor, described from what we know of their
// family, and fall back to the models we know when the endpoint is down.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Model } from '../../server/protocol/modelMethods';
import { startModelServer, useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome } from '../support/agent';
import { tempDir, useServers } from '../support/serverProcess';
import { unlessWine, WINE_NO_FETCH } from '../support/underWine';

interface ModelPage {
  data: Model[];
  nextCursor: string | null;
}

describe('model/list and modelProvider/list', () => {
  const model = useModelServer();
  const start = useServers();
  const serve = (home: string, env: Record<string, string> = agentEnv) => start(home, undefined, env);

  const modelRequests = () => model.requests.filter((r) => r.method === 'GET' && r.path === '/v1/models');

  it("lists the default provider's models from its endpoint once, then from the cache", async function () {
    unlessWine(this, WINE_NO_FETCH);
    model.setModels(['gpt-5.1-codex', 'test-model', 'text-embedding-3-small', 'qwen3-coder']);
    const server = await serve(agentHome('responses', model.baseUrl));
    const page = await server.call<ModelPage>('model/list', {});
    assert.deepEqual(
      page.data.map((m) => m.id),
      ['gpt-5.1-codex', 'test-model', 'qwen3-coder'],
      'the embedding model is hidden',
    );
    assert.equal(page.nextCursor, null);
    const [codex, configured, local] = page.data as [Model, Model, Model];
    assert.equal(configured.isDefault, true);
    assert.equal(codex.isDefault, false);
    assert.deepEqual(
      codex.supportedReasoningEfforts.map((e) => e.reasoningEffort),
      ['low', 'medium', 'high'],
    );
    assert.equal(codex.defaultReasoningEffort, 'medium');
    assert.deepEqual(local.supportedReasoningEfforts, []);
    assert.match(local.description, /Scripted/);

    const withHidden = await server.call<ModelPage>('model/list', { includeHidden: true });
    assert.ok(withHidden.data.some((m) => m.id === 'text-embedding-3-small' && m.hidden));
    assert.equal(modelRequests().length, 1, 'the second call was answered from the cache');
    assert.ok(JSON.stringify(modelRequests()[0]!.headers).includes(agentEnv.SCRIPTED_API_KEY));
  });

  it('pages by cursor and refuses cursors it did not issue', async function () {
    unlessWine(this, WINE_NO_FETCH);
    model.setModels(['m1', 'm2', 'm3', 'm4', 'm5']);
    const server = await serve(agentHome('chat', model.baseUrl));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ModelPage = await server.call<ModelPage>('model/list', { limit: 2, cursor });
      assert.ok(page.data.length <= 2);
      seen.push(...page.data.map((m) => m.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, ['test-model', 'm1', 'm2', 'm3', 'm4', 'm5'], 'the configured model comes first');

    const bad = await server.request('model/list', { cursor: 'not-a-cursor' });
    assert.equal(bad.error?.code, -32602);
    const { nextCursor } = await server.call<ModelPage>('model/list', { limit: 1 });
    const other = await server.request('model/list', { cursor: nextCursor, modelProvider: 'ollama' });
    assert.equal(other.error?.code, -32602);
    const unknown = await server.request('model/list', { modelProvider: 'nowhere' });
    assert.equal(unknown.error?.code, -32602);
  });

  it('reads the Anthropic models endpoint', async function () {
    unlessWine(this, WINE_NO_FETCH);
    model.setModels(['claude-sonnet-4-5-20250929', 'claude-3-5-haiku-20241022']);
    const server = await serve(agentHome('anthropic', model.baseUrl));
    const { data } = await server.call<ModelPage>('model/list', {});
    const sonnet = data.find((m) => m.id === 'claude-sonnet-4-5-20250929');
    assert.ok(sonnet, JSON.stringify(data));
    assert.ok(sonnet.supportedReasoningEfforts.some((e) => e.reasoningEffort === 'high'));
    assert.equal(modelRequests()[0]?.wire, 'anthropic');
  });

  it('falls back to the models it knows when the endpoint is down', async () => {
    const down = await startModelServer();
    const baseUrl = down.baseUrl;
    await down.close();
    const home = tempDir('threadline-models-');
    writeFileSync(
      join(home, 'config.toml'),
      [
        'model = "my-openai-model"',
        '[model_providers.openai]',
        `base_url = "${baseUrl}"`,
        'request_max_retries = 0',
      ].join('\n'),
    );
    const server = await serve(home, { OPENAI_API_KEY: 'sk-fallback-test-key' });
    const { data } = await server.call<ModelPage>('model/list', {});
    assert.equal(data[0]?.id, 'my-openai-model');
    assert.equal(data[0]?.isDefault, true);
    assert.ok(
      data.some((m) => m.id === 'gpt-5.1-codex'),
      JSON.stringify(data.map((m) => m.id)),
    );
    assert.match(server.stderr, /models endpoint failed/);
    assert.ok(!server.stderr.includes('sk-fallback-test-key'));

    const anthropic = await server.call<ModelPage>('model/list', { modelProvider: 'anthropic' });
    assert.ok(anthropic.data.every((m) => m.id.startsWith('claude-') && !m.isDefault));
    assert.match(server.stderr, /no API key for anthropic/);
  });

  it('lists the configured providers', async () => {
    const server = await serve(agentHome('chat', model.baseUrl));
    const result = await server.call<{
      data: { id: string; name: string; baseUrl: string | null; settings: Record<string, unknown> }[];
      defaultProviderId: string;
      canChangeDefault: boolean;
    }>('modelProvider/list', {});
    assert.equal(result.defaultProviderId, 'scripted');
    assert.equal(result.canChangeDefault, false);
    assert.deepEqual(
      result.data.map((p) => p.id),
      ['openai', 'ollama', 'lmstudio', 'anthropic', 'scripted'],
    );
    const scripted = result.data.find((p) => p.id === 'scripted')!;
    assert.equal(scripted.baseUrl, model.baseUrl);
    assert.deepEqual(scripted.settings, {
      type: 'customGateway',
      auth: { mode: 'environmentVariable', envKey: 'SCRIPTED_API_KEY' },
    });
    assert.deepEqual(result.data[0]!.settings, { type: 'openai' });
  });
});
