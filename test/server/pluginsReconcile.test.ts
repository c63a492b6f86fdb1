// plugin/reconcile through the real server: an installed plugin whose source files change on disk is
// installed again (the change reported once, with what the plugin brings), an installed copy deleted
// by hand is reported as gone, and a pass that finds nothing reports nothing, across a restart too.
import { strict as assert } from 'node:assert';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { marketplaceWithPlugin, writeSkill, writeWithFolders } from '../support/marketplace';
import { tempDir, useServers } from '../support/serverProcess';

interface Reconciled {
  changedPlugins: { id: string; hasSkills: boolean; hasApps: boolean; hasMcps: boolean; hasHooks: boolean }[];
  failedRemotePluginIds: string[];
  failedMaterializationRemotePluginIds: string[];
}

describe('plugin/reconcile', () => {
  const start = useServers();

  it('installs again what changed on disk, reports it once, and reports a copy deleted by hand', async () => {
    const home = tempDir();
    const env = { HOME: tempDir('threadline-user-') };
    const local = marketplaceWithPlugin('team', 'lint', 'LINT-V1');
    writeWithFolders(
      join(local.repo, 'plugins', 'lint', '.app.json'),
      JSON.stringify({ apps: { checker: { name: 'Checker', mcp_server: 'checker' } } }),
    );
    let server = await start(home, 'threadline_vscode', env);
    await server.call('marketplace/add', { source: local.repo });
    await server.call('plugin/install', { marketplacePath: local.marketplacePath, pluginName: 'lint' });
    const nothing: Reconciled = {
      changedPlugins: [],
      failedRemotePluginIds: [],
      failedMaterializationRemotePluginIds: [],
    };
    assert.deepEqual(await server.call('plugin/reconcile', {}), nothing, 'an install is no change to report');

    writeSkill(local.repo, 'lint', 'LINT-V2');
    const changed = await server.call<Reconciled>('plugin/reconcile', { reason: 'files changed' });
    assert.deepEqual(changed.changedPlugins, [
      { id: 'lint@team', hasSkills: true, hasApps: true, hasMcps: false, hasHooks: false },
    ]);
    await server.next((m) => m.method === 'skills/changed');
    const copy = join(home, 'plugins', 'team', 'lint', 'skills', 'lint', 'SKILL.md');
    assert.match(readFileSync(copy, 'utf8'), /LINT-V2/);
    const read = await server.call<{ contents: string }>('plugin/skill/read', {
      remoteMarketplaceName: 'team',
      remotePluginId: 'lint@team',
      skillName: 'lint',
    });
    assert.match(read.contents, /LINT-V2/);
    assert.deepEqual(await server.call('plugin/reconcile', {}), nothing);

    await server.stop();
    server = await start(home, 'threadline_vscode', env);
    assert.deepEqual(await server.call('plugin/reconcile', {}), nothing, 'the snapshot outlives the process');

    rmSync(join(home, 'plugins', 'team', 'lint'), { recursive: true });
    const gone = await server.call<Reconciled>('plugin/reconcile', {});
    assert.deepEqual(gone.changedPlugins, [
      { id: 'lint@team', hasSkills: true, hasApps: true, hasMcps: false, hasHooks: false },
    ]);
    assert.deepEqual(
      (await server.call<{ marketplaces: unknown[] }>('plugin/installed', {})).marketplaces,
      [],
    );
  });

  it('keeps the installed copy when its source no longer installs', async () => {
    const home = tempDir();
    const local = marketplaceWithPlugin('team', 'lint', 'LINT-V1');
    const server = await start(home, 'threadline_vscode', { HOME: tempDir('threadline-user-') });
    await server.call('plugin/install', { marketplacePath: local.marketplacePath, pluginName: 'lint' });
    writeWithFolders(join(local.repo, 'plugins', 'lint', '.app.json'), '{ broken');
    assert.deepEqual((await server.call<Reconciled>('plugin/reconcile', {})).changedPlugins, []);
    assert.match(server.stderr, /plugin lint@team: its source cannot be read .*the installed copy stays/);
    const copy = join(home, 'plugins', 'team', 'lint', 'skills', 'lint', 'SKILL.md');
    assert.match(readFileSync(copy, 'utf8'), /LINT-V1/);

    // The marketplace stops listing it: still installed, shown under its marketplace once.
    writeWithFolders(local.marketplacePath, JSON.stringify({ name: 'team', plugins: [] }));
    const shown = await server.call<{ marketplaces: { name: string; plugins: { id: string }[] }[] }>(
      'plugin/installed',
      { cwds: [local.repo] },
    );
    assert.deepEqual(
      shown.marketplaces.map((m) => [m.name, m.plugins.map((p) => p.id)]),
      [['team', ['lint@team']]],
    );
    assert.deepEqual((await server.call<Reconciled>('plugin/reconcile', {})).changedPlugins, []);
    assert.match(server.stderr, /plugin lint@team: team no longer lists it; the installed copy stays/);
  });
});
