// modelProvider/config/write through the built server: a provider's settings land in config.toml
// with its comments and other keys kept, read back by modelProvider/list after a restart, and a key
// (in any field, or in the URL) is refused and never written.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelProviderSummary } from '../../server/protocol/modelMethods';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';

const CONFIG = `# my own notes, kept
model = "m1" # the model I like

[model_providers.local]
# the box under my desk
name = "Local box"
base_url = "http://127.0.0.1:9/v1"
wire_api = "chat"
env_key = "LOCAL_KEY"

[shell_environment_policy]
inherit = "core"
`;
const SECRET = 'sk-proj-threadlinetestsecret0123456789';

type Written = { provider: ModelProviderSummary };
type Listed = { data: ModelProviderSummary[] };

describe('modelProvider/config/write', () => {
  const start = useServers();
  const home = () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.toml'), CONFIG);
    return dir;
  };
  const config = (server: ServerProcess) => readFileSync(join(server.home, 'config.toml'), 'utf8');
  const write = (server: ServerProcess, settings: Record<string, unknown>) =>
    server.call<Written>('modelProvider/config/write', { settings });

  it('adds a provider and edits one, keeping comments and other keys, read back after a restart', async () => {
    const dir = home();
    let server = await start(dir);
    const added = await write(server, {
      type: 'customGateway',
      name: 'My Gateway',
      baseUrl: 'https://gateway.example/v1/',
      envKey: 'MY_GATEWAY_KEY',
    });
    assert.deepEqual(added.provider, {
      id: 'my-gateway',
      name: 'My Gateway',
      baseUrl: 'https://gateway.example/v1',
      canEdit: true,
      settings: { type: 'customGateway', auth: { mode: 'environmentVariable', envKey: 'MY_GATEWAY_KEY' } },
    });
    // The same name again gets an id of its own.
    const twin = await write(server, { type: 'customGateway', name: 'My Gateway', baseUrl: 'http://b/v1' });
    assert.equal(twin.provider.id, 'my-gateway-2');
    assert.deepEqual(twin.provider.settings, { type: 'customGateway', auth: { mode: 'none' } });

    // Omitted fields are kept; null clears one.
    const edited = await write(server, {
      type: 'customGateway',
      providerId: 'local',
      name: 'Desk',
      envKey: null,
    });
    assert.deepEqual(edited.provider, {
      id: 'local',
      name: 'Desk',
      baseUrl: 'http://127.0.0.1:9/v1',
      canEdit: true,
      settings: { type: 'customGateway', auth: { mode: 'none' } },
    });
    const text = config(server);
    for (const kept of [
      '# my own notes, kept',
      'model = "m1" # the model I like',
      '# the box under my desk',
      'wire_api = "chat"',
      '[shell_environment_policy]\ninherit = "core"',
    ])
      assert.ok(text.includes(kept), `${kept} kept in:\n${text}`);
    assert.ok(!text.includes('LOCAL_KEY'), 'env_key cleared');
    assert.match(text, /model_providers\.my-gateway\b.*env_key = "MY_GATEWAY_KEY"/);
    await server.stop();

    server = await start(dir);
    const { data } = await server.call<Listed>('modelProvider/list', {});
    const byId = new Map(data.map((p) => [p.id, p]));
    assert.deepEqual(byId.get('my-gateway'), added.provider);
    assert.deepEqual(byId.get('local'), edited.provider);
    assert.equal(byId.get('openai')?.canEdit, false);
    server.assertSchemaClean();
  });

  it('never writes a key: one in a field, in the URL, or the value of a key variable is refused', async () => {
    const server = await start(home(), undefined, { MY_GATEWAY_API_KEY: 'plainlookingvalue42' });
    const before = config(server);
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ envKey: SECRET }, /envKey: the name of an environment variable/],
      [{ envKey: 'AKIAABCDEFGHIJKLMNOP' }, /envKey: looks like it holds a key/],
      [{ envKey: 'plainlookingvalue42' }, /envKey: looks like it holds a key/],
      [{ name: SECRET }, /name: looks like it holds a key/],
      [{ baseUrl: `https://user:${SECRET}@gateway.example/v1` }, /a user or password in the URL/],
      [{ baseUrl: `https://gateway.example/v1?api_key=${SECRET}` }, /no query or fragment/],
      [{ baseUrl: `https://gateway.example/${SECRET}/v1` }, /baseUrl: looks like it holds a key/],
    ];
    for (const [fields, message] of refused) {
      const answer = await server.request('modelProvider/config/write', {
        settings: { type: 'customGateway', providerId: 'local', ...fields },
      });
      assert.equal(answer.error?.code, -32602, JSON.stringify(fields));
      assert.match(answer.error!.message, message);
      assert.ok(!answer.error!.message.includes(SECRET), 'the error does not repeat the key');
    }
    assert.equal(config(server), before, 'config.toml untouched');
    // The key's name is written, never the key in the variable.
    await write(server, { type: 'customGateway', providerId: 'local', envKey: 'MY_GATEWAY_API_KEY' });
    const after = config(server);
    assert.match(after, /env_key = "MY_GATEWAY_API_KEY"/);
    assert.ok(!after.includes('plainlookingvalue42'));
    assert.ok(!server.stderr.includes(SECRET), 'the key is not in the log');
    server.assertSchemaClean();
  });

  it('answers bad params with -32602 and providers it cannot edit with a clear error', async () => {
    const server = await start(home());
    const invalid: unknown[] = [
      {},
      { settings: {} },
      { settings: { type: 'azure' } },
      { settings: { type: 'customGateway', name: 'x', baseUrl: 'http://x/v1', extra: 1 } },
      { settings: { type: 'customGateway', name: 'x' } },
      { settings: { type: 'customGateway', name: '  ', baseUrl: 'http://x/v1' } },
      { settings: { type: 'customGateway', name: 'x', baseUrl: 'ftp://x/v1' } },
      { settings: { type: 'customGateway', providerId: 'a.b', name: 'x' } },
      { settings: { type: 'bedrock' } },
      { settings: { type: 'gcp', providerId: 'aws' } },
    ];
    for (const params of invalid) {
      const answer = await server.request('modelProvider/config/write', params);
      assert.equal(answer.error?.code, -32602, JSON.stringify(params));
    }
    for (const [settings, message] of [
      [{ type: 'customGateway', providerId: 'nope', name: 'x' }, /model provider not found: nope/],
      [{ type: 'customGateway', providerId: 'openai', name: 'x' }, /openai provider is not a customGateway/],
      [{ type: 'bedrock', providerId: 'amazon-bedrock', region: 'us-east-1' }, /no Amazon Bedrock provider/],
      [{ type: 'gcp', providerId: 'gcp', projectId: 'p' }, /no Google Cloud provider/],
    ] as const) {
      const answer = await server.request('modelProvider/config/write', { settings });
      assert.equal(answer.error?.code, -32600, JSON.stringify(settings));
      assert.match(answer.error!.message, message);
    }
    assert.equal(config(server), CONFIG, 'nothing written');
    server.assertSchemaClean();
  });
});
