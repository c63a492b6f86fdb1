// Marketplaces through the real server, on real folders and real git repositories (cloned over
// file://, the machine having no network): marketplace/add of a local folder and of a git repository,
// their plugins listed, installed and read (plugin/installed, plugin/skill/read), a git one upgraded
// when its remote moves, both kept in config.toml across a restart, then removed.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { git } from '../support/git';
import { commitAll, marketplaceWithPlugin, writeSkill, writeWithFolders } from '../support/marketplace';
import type { ServerProcess } from '../support/serverProcess';
import { tempDir, useServers } from '../support/serverProcess';

interface Entry {
  name: string;
  path: string | null;
  plugins: { id: string; installed: boolean }[];
}

describe('marketplaces', () => {
  const start = useServers();
  const userHome = () => tempDir('threadline-user-');

  it('adds a local folder and a git repository, lists, installs, upgrades, survives a restart and removes them', async () => {
    const home = tempDir();
    const env = { HOME: userHome() };
    const local = marketplaceWithPlugin('local-team', 'lint');
    const remote = marketplaceWithPlugin('git-team', 'notes', 'NOTES-V1');
    commitAll(remote.repo, 'first');
    const url = `file://${remote.repo}`;
    let server = await start(home, 'threadline_vscode', env);

    const addedLocal = await server.call('marketplace/add', { source: local.repo });
    assert.deepEqual(addedLocal, {
      marketplaceName: 'local-team',
      installedRoot: realpathSync(local.repo),
      alreadyAdded: false,
    });
    assert.equal(
      (await server.call<{ alreadyAdded: boolean }>('marketplace/add', { source: local.repo })).alreadyAdded,
      true,
    );
    const clone = join(home, 'marketplaces', 'git-team');
    assert.deepEqual(await server.call('marketplace/add', { source: url }), {
      marketplaceName: 'git-team',
      installedRoot: clone,
      alreadyAdded: false,
    });
    assert.ok(existsSync(join(clone, 'plugins', 'notes', 'skills', 'notes', 'SKILL.md')));
    assert.deepEqual(await server.call('marketplace/add', { source: url }), {
      marketplaceName: 'git-team',
      installedRoot: clone,
      alreadyAdded: true,
    });
    const config = parse(readFileSync(join(home, 'config.toml'), 'utf8')) as {
      marketplaces: Record<string, Record<string, string>>;
    };
    assert.deepEqual(Object.keys(config.marketplaces).sort(), ['git-team', 'local-team']);
    assert.equal(config.marketplaces['git-team']!.source_type, 'git');
    assert.equal(config.marketplaces['git-team']!.source, url);
    assert.equal(config.marketplaces['git-team']!.last_revision, git(remote.repo, 'rev-parse', 'HEAD'));

    const names = async (s: ServerProcess, method = 'plugin/list', params = {}) =>
      (await s.call<{ marketplaces: Entry[] }>(method, params)).marketplaces.map((m) => [
        m.name,
        m.plugins.map((p) => [p.id, p.installed]),
      ]);
    assert.deepEqual(await names(server), [
      ['git-team', [['notes@git-team', false]]],
      ['local-team', [['lint@local-team', false]]],
    ]);

    const cloneFile = join(clone, '.agents', 'plugins', 'marketplace.json');
    await server.call('plugin/install', { marketplacePath: cloneFile, pluginName: 'notes' });
    assert.deepEqual(await names(server, 'plugin/installed'), [['git-team', [['notes@git-team', true]]]]);
    assert.deepEqual(await names(server, 'plugin/installed', { installSuggestionPluginNames: ['lint'] }), [
      ['git-team', [['notes@git-team', true]]],
      ['local-team', [['lint@local-team', false]]],
    ]);

    const read = (remoteMarketplaceName: string, remotePluginId: string, skillName: string) =>
      server.request('plugin/skill/read', { remoteMarketplaceName, remotePluginId, skillName });
    assert.match(
      (
        await server.call<{ contents: string }>('plugin/skill/read', {
          remoteMarketplaceName: 'git-team',
          remotePluginId: 'notes@git-team',
          skillName: 'notes',
        })
      ).contents,
      /NOTES-V1/,
    );
    // Not installed: read from the marketplace's folder.
    assert.match(
      (
        await server.call<{ contents: string }>('plugin/skill/read', {
          remoteMarketplaceName: 'local-team',
          remotePluginId: 'lint',
          skillName: 'lint',
        })
      ).contents,
      /STEPS/,
    );
    for (const [m, p, s] of [
      ['nowhere', 'notes', 'notes'],
      ['git-team', 'nope', 'notes'],
      ['git-team', 'notes', 'nope'],
    ] as const) {
      assert.equal((await read(m, p, s)).error?.code, -32602, `${m} ${p} ${s}`);
    }

    // Nothing new upstream: nothing upgraded.
    assert.deepEqual(await server.call('marketplace/upgrade', {}), {
      selectedMarketplaces: ['git-team'],
      upgradedRoots: [],
      errors: [],
    });
    // The remote gains a plugin: the clone follows.
    const remoteFile = JSON.parse(readFileSync(remote.marketplacePath, 'utf8')) as { plugins: unknown[] };
    remoteFile.plugins.push({ name: 'todo', source: { source: 'local', path: './plugins/todo' } });
    writeWithFolders(remote.marketplacePath, JSON.stringify(remoteFile));
    writeSkill(remote.repo, 'todo', 'TODO');
    commitAll(remote.repo, 'second');
    assert.deepEqual(await server.call('marketplace/upgrade', { marketplaceName: 'git-team' }), {
      selectedMarketplaces: ['git-team'],
      upgradedRoots: [clone],
      errors: [],
    });
    assert.deepEqual(await server.call('marketplace/upgrade', { marketplaceName: 'local-team' }), {
      selectedMarketplaces: ['local-team'],
      upgradedRoots: [],
      errors: [],
    });
    assert.equal(
      (await server.request('marketplace/upgrade', { marketplaceName: 'nope' })).error?.code,
      -32602,
    );

    await server.stop();
    server = await start(home, 'threadline_vscode', env);
    assert.deepEqual(await names(server), [
      [
        'git-team',
        [
          ['notes@git-team', true],
          ['todo@git-team', false],
        ],
      ],
      ['local-team', [['lint@local-team', false]]],
    ]);

    assert.deepEqual(await server.call('marketplace/remove', { marketplaceName: 'git-team' }), {
      marketplaceName: 'git-team',
      installedRoot: clone,
    });
    assert.ok(!existsSync(clone));
    assert.deepEqual(await server.call('marketplace/remove', { marketplaceName: 'local-team' }), {
      marketplaceName: 'local-team',
      installedRoot: null,
    });
    assert.ok(existsSync(local.marketplacePath), "a local folder is the user's: left as it is");
    assert.deepEqual(await names(server), []);
    // Its installed plugin stays installed, shown from its install's record.
    assert.deepEqual(await names(server, 'plugin/installed'), [['git-team', [['notes@git-team', true]]]]);
    const again = await server.request('marketplace/remove', { marketplaceName: 'git-team' });
    assert.equal(again.error?.code, -32602);
    assert.deepEqual(
      Object.keys(parse(readFileSync(join(home, 'config.toml'), 'utf8')).marketplaces ?? {}),
      [],
    );
  });

  it('checks out only the sparse paths of a git marketplace, and keeps them on upgrade', async () => {
    const server = await start(undefined, 'threadline_vscode', { HOME: tempDir('threadline-user-') });
    const remote = marketplaceWithPlugin('team', 'notes');
    writeSkill(remote.repo, 'other', 'OTHER');
    commitAll(remote.repo, 'two plugins');
    const added = await server.call<{ installedRoot: string }>('marketplace/add', {
      source: `file://${remote.repo}`,
      sparsePaths: ['./plugins/notes/'],
    });
    const present = (path: string) => existsSync(join(added.installedRoot, path));
    assert.ok(present('.agents/plugins/marketplace.json'));
    assert.ok(present('plugins/notes/skills/notes/SKILL.md'));
    assert.ok(!present('plugins/other'), 'outside the sparse paths');
    const config = parse(readFileSync(join(server.home, 'config.toml'), 'utf8')) as {
      marketplaces: Record<string, { sparse_paths: string[] }>;
    };
    assert.deepEqual(config.marketplaces.team!.sparse_paths, ['plugins/notes']);

    writeSkill(remote.repo, 'notes', 'NOTES-V2');
    writeSkill(remote.repo, 'other', 'OTHER-V2');
    commitAll(remote.repo, 'both change');
    const upgraded = await server.call<{ upgradedRoots: string[] }>('marketplace/upgrade', {});
    assert.deepEqual(upgraded.upgradedRoots, [added.installedRoot]);
    assert.match(
      readFileSync(join(added.installedRoot, 'plugins/notes/skills/notes/SKILL.md'), 'utf8'),
      /V2/,
    );
    assert.ok(!present('plugins/other'));
  });
});
