// experimentalFeature/enablement/set through the real server: features turned on and off for the
// running process, above config.toml and below requirements.toml, seen by experimentalFeature/list
// and by the tools the next turn offers the scripted model; an unknown or pinned feature refuses
// the whole set.
import { strict as assert } from 'node:assert';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, runTurn, startThread } from '../support/agent';
import { useServers } from '../support/serverProcess';

describe('experimentalFeature/enablement/set', () => {
  const model = useModelServer();
  const start = useServers();

  const enabled = async (server: Awaited<ReturnType<typeof start>>) =>
    Object.fromEntries(
      (
        await server.call<{ data: { name: string; enabled: boolean }[] }>('experimentalFeature/list', {})
      ).data.map((f) => [f.name, f.enabled]),
    );
  const offersViewImage = (i: number) => JSON.stringify(model.requests[i]!.body).includes('"view_image"');

  it('turns a feature off for the process, above config.toml, and the next turn goes without it', async () => {
    const home = agentHome('responses', model.baseUrl);
    appendFileSync(join(home, 'config.toml'), '\n[features]\nupdate_plan = false\n');
    const server = await start(home, 'threadline_vscode', agentEnv);
    assert.deepEqual(await enabled(server), { update_plan: false, view_image: true });
    const threadId = await startThread(server);
    model.script({ output: [{ text: 'One.' }] });
    await runTurn(server, threadId, 'first');
    assert.ok(offersViewImage(0), 'view_image is offered while on');

    assert.deepEqual(
      await server.call('experimentalFeature/enablement/set', {
        enablement: { view_image: false, update_plan: true },
      }),
      { enablement: { view_image: false, update_plan: true } },
    );
    assert.deepEqual(await enabled(server), { update_plan: true, view_image: false });
    model.script({ output: [{ text: 'Two.' }] });
    await runTurn(server, threadId, 'second');
    assert.ok(!offersViewImage(1), 'view_image is not offered once turned off');

    assert.deepEqual(await server.call('experimentalFeature/enablement/set', { enablement: {} }), {
      enablement: {},
    });
    assert.deepEqual(
      await enabled(server),
      { update_plan: true, view_image: false },
      'an empty set changes nothing',
    );
    server.assertSchemaClean();
  });

  it('refuses an unknown feature (-32602) or one requirements.toml pins (-32600), changing nothing', async () => {
    const home = agentHome('responses', model.baseUrl);
    writeFileSync(join(home, 'requirements.toml'), '[features]\nview_image = true\n');
    const server = await start(home, 'threadline_vscode', agentEnv);
    const unknown = await server.request('experimentalFeature/enablement/set', {
      enablement: { update_plan: false, warp_drive: true },
    });
    assert.equal(unknown.error?.code, -32602);
    assert.match(
      unknown.error!.message,
      /enablement\.warp_drive: no such feature \(known: update_plan, view_image\)/,
    );
    const pinned = await server.request('experimentalFeature/enablement/set', {
      enablement: { update_plan: false, view_image: false },
    });
    assert.equal(pinned.error?.code, -32600);
    assert.match(pinned.error!.message, /view_image is pinned to true by requirements\.toml/);
    assert.deepEqual(await enabled(server), { update_plan: true, view_image: true });
    for (const bad of [{}, { enablement: { view_image: 'off' } }, { enablement: [] }]) {
      assert.equal((await server.request('experimentalFeature/enablement/set', bad)).error?.code, -32602);
    }
    assert.deepEqual(
      await server.call('experimentalFeature/enablement/set', { enablement: { view_image: true } }),
      { enablement: { view_image: true } },
      'asking for what the pin holds is fine',
    );
    server.assertSchemaClean();
  });
});
