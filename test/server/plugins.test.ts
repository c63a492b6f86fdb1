// Plugins through the real server, on real folders: a repository's marketplace lists a plugin that
// bundles a skill, an app and an MCP server; plugin/read shows its parts, plugin/install copies it
// into the home (links left behind) and its skill and app appear, plugin/uninstall takes them away.
// Broken marketplaces are reported, and entries or ids that reach outside their folders refused.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { AppInfo } from '../../server/protocol/appMethods';
import type { SkillsListEntry } from '../../server/protocol/skillMethods';
import { marketplaceRepo, writeWithFolders } from '../support/marketplace';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';

interface Summary {
  id: string;
  name: string;
  installed: boolean;
  enabled: boolean;
  localVersion: string | null;
  interface: { displayName: string | null } | null;
}
interface ListResult {
  marketplaces: { name: string; path: string; plugins: Summary[] }[];
  marketplaceLoadErrors: { marketplacePath: string; message: string }[];
}

describe('plugins', () => {
  const start = useServers();

  function fixture() {
    const userHome = tempDir('threadline-user-');
    const { repo, marketplacePath } = marketplaceRepo({
      name: 'team',
      interface: { displayName: 'Team plugins' },
      plugins: [
        { name: 'lint-kit', source: { source: 'local', path: './plugins/lint-kit' } },
        { name: 'escape', source: { source: 'local', path: '../../elsewhere' } },
      ],
    });
    const plugin = join(repo, 'plugins', 'lint-kit');
    writeWithFolders(
      join(plugin, '.codex-plugin', 'plugin.json'),
      JSON.stringify({
        name: 'lint-kit',
        version: '1.2.0',
        description: 'Linting for the team',
        keywords: ['lint'],
        interface: { displayName: 'Lint Kit', capabilities: ['skills'] },
      }),
    );
    writeWithFolders(
      join(plugin, 'skills', 'lint', 'SKILL.md'),
      '---\nname: lint\ndescription: Lint it\n---\nLINT-STEPS\n',
    );
    writeWithFolders(
      join(plugin, '.app.json'),
      JSON.stringify({ apps: { 'tracker-app': { name: 'Tracker', mcp_server: 'tracker' } } }),
    );
    writeWithFolders(
      join(plugin, '.mcp.json'),
      JSON.stringify({ mcpServers: { tracker: { command: 'tracker-mcp' } } }),
    );
    const secret = join(tempDir('threadline-secret-'), 'key.txt');
    writeWithFolders(secret, 'SECRET');
    symlinkSync(secret, join(plugin, 'skills', 'lint', 'key.md'));
    // The user's own marketplace is broken: reported, the repository's still listed.
    writeWithFolders(join(userHome, '.agents', 'plugins', 'marketplace.json'), '{ not json');
    return { userHome, repo, marketplacePath, plugin };
  }

  async function serve(userHome: string): Promise<ServerProcess> {
    return start(undefined, 'threadline_vscode', { HOME: userHome });
  }

  const skillNames = async (server: ServerProcess, cwd: string) =>
    (
      await server.call<{ data: SkillsListEntry[] }>('skills/list', { cwds: [cwd], forceReload: true })
    ).data[0]!.skills.map((s) => [s.name, s.pluginId]);

  it('lists, reads, installs and uninstalls a plugin with its skill and app', async () => {
    const { userHome, repo, marketplacePath } = fixture();
    const server = await serve(userHome);
    const cwd = tempDir('threadline-cwd-');

    const listed = await server.call<ListResult>('plugin/list', { cwds: [repo] });
    assert.deepEqual(
      listed.marketplaceLoadErrors.map((e) => e.marketplacePath),
      [join(userHome, '.agents', 'plugins', 'marketplace.json')],
    );
    assert.match(listed.marketplaceLoadErrors[0]!.message, /not valid JSON/);
    assert.equal(listed.marketplaces.length, 1);
    const [team] = listed.marketplaces;
    assert.equal(team!.path, marketplacePath);
    assert.deepEqual(
      team!.plugins.map((p) => [p.id, p.installed, p.interface?.displayName]),
      [['lint-kit@team', false, 'Lint Kit']],
      'the entry pointing outside the marketplace is left out',
    );
    assert.deepEqual((await server.call<ListResult>('plugin/list', {})).marketplaces, []);

    const read = await server.call<{
      plugin: { skills: { name: string; enabled: boolean }[]; apps: { id: string }[]; mcpServers: string[] };
    }>('plugin/read', { marketplacePath, pluginName: 'lint-kit' });
    assert.deepEqual(
      read.plugin.skills.map((s) => [s.name, s.enabled]),
      [['lint', false]],
    );
    assert.deepEqual(
      read.plugin.apps.map((a) => a.id),
      ['tracker-app'],
    );
    assert.deepEqual(read.plugin.mcpServers, ['tracker']);
    assert.deepEqual(await skillNames(server, cwd), []);

    const installed = await server.call('plugin/install', { marketplacePath, pluginName: 'lint-kit' });
    assert.deepEqual(installed, { authPolicy: 'ON_USE', appsNeedingAuth: [] });
    await server.next((m) => m.method === 'skills/changed');
    const updated = await server.next((m) => m.method === 'app/list/updated');
    assert.deepEqual(
      (updated.params as { data: AppInfo[] }).data.map((a) => [a.id, a.isAccessible, a.pluginDisplayNames]),
      [['tracker-app', true, ['lint-kit']]],
    );
    const copy = join(server.home, 'plugins', 'team', 'lint-kit');
    assert.ok(existsSync(join(copy, 'skills', 'lint', 'SKILL.md')));
    assert.ok(!existsSync(join(copy, 'skills', 'lint', 'key.md')), 'a link is not copied');
    assert.match(
      server.stderr,
      /installed plugin lint-kit@team from .* \(links left out: skills\/lint\/key\.md\)/,
    );
    assert.deepEqual(await skillNames(server, cwd), [['lint', 'lint-kit@team']]);
    const apps = await server.call<{ data: AppInfo[] }>('app/list', {});
    assert.deepEqual(
      apps.data.map((a) => a.id),
      ['tracker-app'],
    );
    const after = await server.call<ListResult>('plugin/list', { cwds: [repo] });
    assert.deepEqual(
      after.marketplaces[0]!.plugins.map((p) => [p.installed, p.enabled, p.localVersion]),
      [[true, true, '1.2.0']],
    );

    assert.deepEqual(await server.call('plugin/uninstall', { pluginId: 'lint-kit@team' }), {});
    assert.ok(!existsSync(copy));
    assert.deepEqual(await skillNames(server, cwd), []);
    assert.deepEqual((await server.call<{ data: AppInfo[] }>('app/list', {})).data, []);
    const again = await server.request('plugin/uninstall', { pluginId: 'lint-kit@team' });
    assert.equal(again.error?.code, -32602);
  });

  it('refuses what it cannot find, and ids that reach outside the plugins folder', async () => {
    const { userHome, marketplacePath } = fixture();
    const server = await serve(userHome);
    writeWithFolders(
      join(server.home, 'victim', '.threadline-install.json'),
      '{"name":"x","marketplaceName":"y"}',
    );
    for (const pluginId of ['../victim@x', 'victim@..', '@', 'a@b@c']) {
      const answer = await server.request('plugin/uninstall', { pluginId });
      assert.equal(answer.error?.code, -32602, pluginId);
    }
    assert.ok(existsSync(join(server.home, 'victim')));
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ marketplacePath, pluginName: 'nope' }, /team has no plugin nope/],
      [{ marketplacePath, pluginName: 'escape' }, /team has no plugin escape/],
      [{ pluginName: 'lint-kit' }, /marketplacePath: the marketplace file is required/],
      [{ marketplacePath: join(userHome, 'missing.json'), pluginName: 'x' }, /no such marketplace file/],
    ];
    for (const [params, reason] of cases) {
      const answer = await server.request('plugin/install', params);
      assert.equal(answer.error?.code, -32602);
      assert.match(answer.error!.message, reason);
    }
    const remote = await server.request('plugin/read', { pluginName: 'x', remoteMarketplaceName: 'openai' });
    assert.equal(remote.error?.code, -32600);
    assert.ok(!existsSync(join(server.home, 'plugins', 'team')));
  });

  it('refuses a plugin folder that is a link out of its marketplace, and installs one that stays in it', async () => {
    const userHome = tempDir('threadline-user-');
    const { repo, marketplacePath } = marketplaceRepo({
      name: 'team',
      plugins: [
        { name: 'keys', source: { source: 'local', path: './plugins/keys' } },
        { name: 'inside', source: { source: 'local', path: './plugins/inside' } },
      ],
    });
    // The user's ~/.ssh, dressed as a plugin so that it would pass as one.
    const ssh = join(userHome, '.ssh');
    writeWithFolders(join(ssh, 'id_ed25519'), 'PRIVATE KEY');
    writeWithFolders(join(ssh, '.codex-plugin', 'plugin.json'), '{"name": "keys"}');
    mkdirSync(join(repo, 'plugins'), { recursive: true });
    symlinkSync(ssh, join(repo, 'plugins', 'keys'));
    // A link to a folder of the same repository is followed: it is still the repository's.
    writeWithFolders(
      join(repo, 'shared', 'inside', 'skills', 's', 'SKILL.md'),
      '---\nname: s\ndescription: d\n---\n',
    );
    symlinkSync(join('..', 'shared', 'inside'), join(repo, 'plugins', 'inside'));
    const server = await serve(userHome);

    const refused = await server.request('plugin/install', { marketplacePath, pluginName: 'keys' });
    assert.equal(refused.error?.code, -32600);
    assert.equal(
      refused.error?.message,
      `cannot install keys: ${join(repo, 'plugins', 'keys')} leads to ${ssh}, outside the marketplace's folder ${repo}`,
    );
    assert.ok(!existsSync(join(server.home, 'plugins', 'team', 'keys')), 'nothing of ~/.ssh was copied');

    assert.deepEqual(await server.call('plugin/install', { marketplacePath, pluginName: 'inside' }), {
      authPolicy: 'ON_USE',
      appsNeedingAuth: [],
    });
    assert.ok(existsSync(join(server.home, 'plugins', 'team', 'inside', 'skills', 's', 'SKILL.md')));
  });
});
