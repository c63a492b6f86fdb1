// A marketplace is somebody else's content: names that would climb out of the home, a marketplace file
// that is a link to the user's files, a file too large, plugin entries that reach out of their folder,
// links committed to a git marketplace, and a repository that takes another's name are each refused or
// defused, through the real server. Malformed params are -32602, a broken config.toml a clear -32600.
import { strict as assert } from 'node:assert';
import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { commitAll, marketplaceRepo, marketplaceWithPlugin, writeWithFolders } from '../support/marketplace';
import { tempDir, useServers } from '../support/serverProcess';

describe('marketplaces: hostile content and bad requests', () => {
  const start = useServers();
  const serve = () => start(undefined, 'threadline_vscode', { HOME: tempDir('threadline-user-') });

  it('refuses malformed params with -32602', async () => {
    const server = await serve();
    const cases: [string, unknown][] = [
      ['marketplace/add', {}],
      ['marketplace/add', { source: 42 }],
      ['marketplace/add', { source: '' }],
      ['marketplace/add', { source: './relative' }],
      ['marketplace/add', { source: 'a/b/c' }],
      ['marketplace/add', { source: 'ext::sh -c touch% /tmp/pwned' }],
      ['marketplace/add', { source: 'https://example.com/x.git', refName: '--upload-pack=evil' }],
      ['marketplace/add', { source: 'https://example.com/x.git', sparsePaths: ['../outside'] }],
      ['marketplace/add', { source: 'https://example.com/x.git', sparsePaths: ['-x'] }],
      ['marketplace/add', { source: tempDir(), sparsePaths: ['plugins'] }],
      ['marketplace/add', { source: 'https://me:hunter2@example.com/x.git' }],
      ['marketplace/add', { source: tempDir(), refName: 'main' }],
      ['marketplace/add', { source: join(tempDir(), 'missing') }],
      ['marketplace/remove', {}],
      ['marketplace/remove', { marketplaceName: '../x' }],
      ['marketplace/remove', { marketplaceName: 'never-added' }],
      ['marketplace/upgrade', { marketplaceName: 7 }],
      ['plugin/installed', { cwds: 'x' }],
      ['plugin/reconcile', { reason: 5 }],
      ['plugin/skill/read', { remoteMarketplaceName: 'x', remotePluginId: 'y' }],
      ['app/read', {}],
      ['app/read', { appIds: Array.from({ length: 101 }, (_, i) => `a${i}`) }],
      ['app/installed', { forceRefresh: 'yes' }],
    ];
    for (const [method, params] of cases) {
      const answer = await server.request(method, params);
      assert.equal(answer.error?.code, -32602, `${method} ${JSON.stringify(params).slice(0, 80)}`);
    }
    assert.ok(!existsSync('/tmp/pwned'));
  });

  it('refuses a marketplace whose name, file or size is hostile', async () => {
    const server = await serve();
    const add = (source: string) => server.request('marketplace/add', { source });

    const climbing = marketplaceRepo({ name: '../evil', plugins: [] });
    const refused = await add(climbing.repo);
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error!.message, /`name` must be letters/);

    // The marketplace file is a link to the user's own file: not read, not quoted.
    const linked = marketplaceRepo({ name: 'linked', plugins: [] });
    const secret = join(tempDir('threadline-secret-'), 'secret.json');
    writeWithFolders(secret, '{"name": "SECRET-VALUE"');
    unlinkSync(linked.marketplacePath);
    symlinkSync(secret, linked.marketplacePath);
    const viaLink = await add(linked.repo);
    assert.equal(viaLink.error?.code, -32600);
    assert.match(viaLink.error!.message, /outside its folder/);
    assert.doesNotMatch(viaLink.error!.message, /SECRET-VALUE/);

    const huge = marketplaceRepo({ name: 'huge', plugins: [], padding: 'x'.repeat(1024 * 1024 + 1) });
    const tooLarge = await add(huge.repo);
    assert.equal(tooLarge.error?.code, -32600);
    assert.match(tooLarge.error!.message, /larger than 1 MiB/);

    const notJson = marketplaceRepo({});
    writeWithFolders(notJson.marketplacePath, '{ nope');
    assert.equal((await add(notJson.repo)).error?.code, -32600);

    const gone = await server.request('marketplace/add', { source: `file://${join(tempDir(), 'none')}` });
    assert.equal(gone.error?.code, -32600);
    assert.match(gone.error!.message, /cannot clone/);
    assert.deepEqual(readdirSync(join(server.home, 'marketplaces')), [], 'no staging folder is left');
    assert.equal((await server.call<{ marketplaces: unknown[] }>('plugin/list', {})).marketplaces.length, 0);
  });

  it('keeps plugin entries in their folder and git links as plain files', async () => {
    const server = await serve();
    const remote = marketplaceWithPlugin('team', 'notes');
    const file = JSON.parse(readFileSync(remote.marketplacePath, 'utf8')) as { plugins: unknown[] };
    file.plugins.push({ name: 'escape', source: { source: 'local', path: '../../elsewhere' } });
    writeWithFolders(remote.marketplacePath, JSON.stringify(file));
    const secret = join(tempDir('threadline-secret-'), 'key');
    writeWithFolders(secret, 'PRIVATE KEY');
    symlinkSync(secret, join(remote.repo, 'plugins', 'notes', 'skills', 'key.md'));
    commitAll(remote.repo, 'hostile');

    const added = await server.call<{ installedRoot: string }>('marketplace/add', {
      source: `file://${remote.repo}`,
    });
    const link = join(added.installedRoot, 'plugins', 'notes', 'skills', 'key.md');
    assert.ok(!lstatSync(link).isSymbolicLink(), 'checked out as a plain file');
    assert.equal(readFileSync(link, 'utf8'), secret, 'holding the link text, not the secret');
    const listed = await server.call<{ marketplaces: { plugins: { name: string }[] }[] }>('plugin/list', {});
    assert.deepEqual(
      listed.marketplaces[0]!.plugins.map((p) => p.name),
      ['notes'],
    );
    const escape = await server.request('plugin/skill/read', {
      remoteMarketplaceName: 'team',
      remotePluginId: 'escape',
      skillName: 'x',
    });
    assert.equal(escape.error?.code, -32602);

    // Another repository naming its marketplace `team` too: refused, nothing left behind.
    const rival = marketplaceWithPlugin('team', 'other');
    commitAll(rival.repo, 'rival');
    const taken = await server.request('marketplace/add', { source: `file://${rival.repo}` });
    assert.equal(taken.error?.code, -32600);
    assert.match(taken.error!.message, /already added from another source/);
    assert.deepEqual(readdirSync(join(server.home, 'marketplaces')), ['team']);
  });

  it('runs no program a git config names while cloning (filters, hooks)', async () => {
    const userHome = tempDir('threadline-user-');
    const markers = tempDir('threadline-markers-');
    const hooks = join(userHome, 'hooks');
    writeWithFolders(join(hooks, 'post-checkout'), `#!/bin/sh\ntouch ${join(markers, 'hook')}\n`);
    chmodSync(join(hooks, 'post-checkout'), 0o755);
    // The user's own config, as a careless tool might have left it: a filter and a hooks folder.
    writeWithFolders(
      join(userHome, '.gitconfig'),
      `[filter "evil"]\n\tsmudge = "touch ${join(markers, 'smudge')}; cat"\n\trequired = true\n[core]\n\thooksPath = ${hooks}\n`,
    );
    const remote = marketplaceWithPlugin('team', 'notes');
    writeWithFolders(join(remote.repo, '.gitattributes'), '*.md filter=evil\n');
    commitAll(remote.repo, 'filtered');
    const server = await start(undefined, 'threadline_vscode', { HOME: userHome });
    // Whole, then in part (a sparse checkout checks out in a second step).
    for (const sparsePaths of [[], ['plugins/notes']]) {
      const added = await server.call<{ installedRoot: string }>('marketplace/add', {
        source: `file://${remote.repo}`,
        sparsePaths,
      });
      assert.ok(existsSync(join(added.installedRoot, 'plugins', 'notes', 'skills', 'notes', 'SKILL.md')));
      await server.call('marketplace/remove', { marketplaceName: 'team' });
    }
    assert.deepEqual(readdirSync(markers), [], 'neither the filter nor the hook ran');
  });

  it('answers a broken config.toml with what to fix, and still lists what it can', async () => {
    const server = await serve();
    writeWithFolders(join(server.home, 'config.toml'), '[[[ broken');
    const local = marketplaceWithPlugin('team', 'notes');
    const answer = await server.request('marketplace/add', { source: local.repo });
    assert.equal(answer.error?.code, -32600);
    assert.match(answer.error!.message, /config\.toml is not valid TOML/);
    const listed = await server.call<{ marketplaceLoadErrors: { marketplacePath: string }[] }>(
      'plugin/list',
      {},
    );
    assert.deepEqual(
      listed.marketplaceLoadErrors.map((e) => e.marketplacePath),
      [join(server.home, 'config.toml')],
    );
    assert.ok(server.alive);
  });
});
