// permissionProfile/list and modelProvider/capabilities/read through the real server: the presets
// listed (paged), each marked allowed exactly when thread/start accepts its approval policy and
// sandbox under requirements.toml, the description naming a missing sandbox, and the provider's
// hosted tools; bad params answer -32602. Every response is checked against the reference schema.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { permissionPresets } from '../../server/config/permissionProfiles';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome } from '../support/agent';
import { tempDir, useServers } from '../support/serverProcess';

type Profiles = {
  data: { id: string; description: string | null; allowed: boolean }[];
  nextCursor: string | null;
};

describe('permissionProfile/list and modelProvider/capabilities/read', () => {
  const model = useModelServer();
  const start = useServers();

  it('lists the presets, paged, each allowed exactly when thread/start accepts its settings', async () => {
    const home = agentHome('responses', model.baseUrl);
    writeFileSync(
      join(home, 'requirements.toml'),
      'allowed_approval_policies = ["on-request"]\nallowed_sandbox_modes = ["read-only", "danger-full-access"]\n',
    );
    const server = await start(home, 'threadline_vscode', agentEnv);
    const all = await server.call<Profiles>('permissionProfile/list', {});
    assert.deepEqual(
      all.data.map(({ id, allowed }) => ({ id, allowed })),
      [
        { id: ':read-only', allowed: true },
        { id: ':workspace', allowed: false },
        { id: ':danger-full-access', allowed: false },
      ],
    );
    assert.equal(all.nextCursor, null);
    assert.match(all.data[0]!.description!, /approval on-request, sandbox read-only/);

    const cwd = tempDir();
    for (const preset of permissionPresets) {
      const started = await server.request('thread/start', {
        cwd,
        approvalPolicy: preset.approvalPolicy,
        sandbox: preset.sandboxMode,
      });
      const listed = all.data.find((profile) => profile.id === preset.id)!;
      assert.equal(started.error === undefined, listed.allowed, `${preset.id}: ${started.error?.message}`);
    }

    const first = await server.call<Profiles>('permissionProfile/list', { limit: 2 });
    assert.deepEqual(
      first.data.map((profile) => profile.id),
      [':read-only', ':workspace'],
    );
    const rest = await server.call<Profiles>('permissionProfile/list', {
      cursor: first.nextCursor,
      limit: 2,
    });
    assert.deepEqual(
      rest.data.map((profile) => profile.id),
      [':danger-full-access'],
    );
    assert.equal(rest.nextCursor, null);

    for (const params of [
      { cursor: 'bogus' },
      { cursor: '9' },
      { limit: -1 },
      { limit: 'two' },
      { cwd: 3 },
      [1],
    ]) {
      const bad = await server.request('permissionProfile/list', params);
      assert.equal(bad.error?.code, -32602, JSON.stringify(params));
    }
  });

  it('says when no sandbox works here, and allows every preset without requirements', async function () {
    if (process.platform !== 'linux') this.skip();
    const home = agentHome('responses', model.baseUrl);
    const server = await start(home, 'threadline_vscode', {
      ...agentEnv,
      THREADLINE_BWRAP: '/nonexistent/bwrap',
    });
    const { data } = await server.call<Profiles>('permissionProfile/list');
    assert.ok(data.every((profile) => profile.allowed));
    const noSandbox =
      /no sandbox here \(bubblewrap \(bwrap\) is not installed\), so every command asks first/;
    assert.match(data[0]!.description!, noSandbox);
    assert.match(data[1]!.description!, noSandbox);
    assert.doesNotMatch(data[2]!.description!, noSandbox);
  });

  for (const wire of ['responses', 'chat', 'anthropic'] as const) {
    it(`reads the ${wire} provider's hosted tools: neither web search nor image generation`, async () => {
      const server = await start(agentHome(wire, model.baseUrl), 'threadline_vscode', agentEnv);
      assert.deepEqual(await server.call('modelProvider/capabilities/read', {}), {
        imageGeneration: false,
        webSearch: false,
      });
      assert.deepEqual(await server.call('modelProvider/capabilities/read'), {
        imageGeneration: false,
        webSearch: false,
      });
      const bad = await server.request('modelProvider/capabilities/read', [1]);
      assert.equal(bad.error?.code, -32602);
    });
  }
});
