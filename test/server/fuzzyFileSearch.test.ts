// fuzzyFileSearch over a real folder tree through the real server: a corpus of queries with the
// order a good quick-open gives, .gitignore at several levels, match indices, the session form's
// notifications, an index that follows files created and deleted, and clear errors for bad roots.
import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';
import { until } from '../support/until';

interface Match {
  root: string;
  path: string;
  file_name: string;
  match_type: 'file' | 'directory';
  score: number;
  indices?: number[] | null;
}

const corpus = [
  'src/main.ts',
  'src/domain/mainframe.ts',
  'maintenance/notes.txt',
  'docs/m/a/i/n.md',
  'src/components/Button.tsx',
  'src/components/ButtonGroup.tsx',
  'test/ui/buttons.test.ts',
  'server/methods/fs.ts',
  'server/search/fileIndex.ts',
  'server/search/fuzzyRank.ts',
  'README.md',
  'node_modules/pkg/main.js',
  'build/out.js',
  'src/generated/api.gen.ts',
  'src/generated/keep.ts',
  '.git/HEAD',
];

function makeTree(): string {
  const root = tempDir();
  for (const file of corpus) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), file);
  }
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n/build\n');
  writeFileSync(join(root, 'src', 'generated', '.gitignore'), '*.gen.ts\n');
  return root;
}

const search = async (server: ServerProcess, root: string, query: string) =>
  (await server.call<{ files: Match[] }>('fuzzyFileSearch', { query, roots: [root] })).files;
const paths = (files: Match[]) => files.map((f) => f.path);

describe('fuzzyFileSearch', () => {
  const start = useServers();

  it('ranks a corpus like a quick-open: name matches, contiguous runs and word starts first', async () => {
    const server = await start();
    const root = makeTree();
    const expectations: [string, string[]][] = [
      ['main', ['src/main.ts']],
      ['button', ['src/components/Button.tsx']],
      ['fi', ['server/search/fileIndex.ts']],
      ['fzr', ['server/search/fuzzyRank.ts']],
      ['srchfi', ['server/search/fileIndex.ts']],
      ['server/fs', ['server/methods/fs.ts']],
      ['readme', ['README.md']],
    ];
    for (const [query, expected] of expectations) {
      const files = await search(server, root, query);
      assert.deepEqual(
        paths(files).slice(0, expected.length),
        expected,
        `query ${query}: ${paths(files).join(', ')}`,
      );
      for (let i = 1; i < files.length; i++)
        assert.ok(files[i - 1]!.score >= files[i]!.score, 'scores descend');
    }
    const buttons = paths(await search(server, root, 'button'))
      .slice(1, 3)
      .sort();
    assert.deepEqual(buttons, ['src/components/ButtonGroup.tsx', 'test/ui/buttons.test.ts']);
    const mains = paths(await search(server, root, 'main'));
    // A name that starts with the query beats one whose letters are spread over folders.
    assert.ok(
      mains.indexOf('src/domain/mainframe.ts') < mains.indexOf('maintenance/notes.txt'),
      mains.join(),
    );
    assert.ok(mains.indexOf('maintenance/notes.txt') < mains.indexOf('docs/m/a/i/n.md'), mains.join());
    const [main] = await search(server, root, 'main');
    assert.deepEqual(main, {
      root,
      path: 'src/main.ts',
      file_name: 'main.ts',
      match_type: 'file',
      score: main!.score,
      indices: [4, 5, 6, 7],
    });
    const folder = (await search(server, root, 'maintenance')).find((f) => f.path === 'maintenance');
    assert.equal(folder?.match_type, 'directory');
    // Every index points at a query character, in order.
    for (const file of await search(server, root, 'srchfi')) {
      assert.equal(file.indices!.map((i) => file.path[i]!.toLowerCase()).join(''), 'srchfi');
    }
    assert.deepEqual(await search(server, root, ''), []);
  });

  it('leaves out what .gitignore files at any level ignore, and .git itself', async () => {
    const server = await start();
    const root = makeTree();
    assert.deepEqual(paths(await search(server, root, 'pkg')), []);
    assert.ok(!paths(await search(server, root, 'main')).some((p) => p.startsWith('node_modules')));
    assert.deepEqual(paths(await search(server, root, 'out.js')), []);
    assert.deepEqual(paths(await search(server, root, 'api.gen')), []);
    assert.deepEqual(paths(await search(server, root, 'keep')), ['src/generated/keep.ts']);
    assert.deepEqual(paths(await search(server, root, 'HEAD')), []);
  });

  it('follows files created, deleted and newly ignored after the index is built', async () => {
    const server = await start();
    const root = makeTree();
    assert.deepEqual(paths(await search(server, root, 'zebra')), []);
    mkdirSync(join(root, 'src', 'animals'));
    writeFileSync(join(root, 'src', 'animals', 'zebra.ts'), '');
    await until(async () => paths(await search(server, root, 'zebra')).includes('src/animals/zebra.ts'));
    rmSync(join(root, 'src', 'animals'), { recursive: true });
    await until(async () => (await search(server, root, 'zebra')).length === 0);
    writeFileSync(join(root, 'src', '.gitignore'), 'main.ts\n');
    await until(async () => !paths(await search(server, root, 'main')).includes('src/main.ts'));
    assert.ok(paths(await search(server, root, 'main')).includes('src/domain/mainframe.ts'));
  });

  it('answers a search superseded by one with the same cancellation token with no files', async () => {
    const server = await start();
    const root = makeTree();
    const first = server.request('fuzzyFileSearch', { query: 'main', roots: [root], cancellationToken: 't' });
    const second = server.request('fuzzyFileSearch', {
      query: 'button',
      roots: [root],
      cancellationToken: 't',
    });
    assert.deepEqual((await first).result, { files: [] });
    const { files } = (await second).result as { files: Match[] };
    assert.equal(files[0]?.path, 'src/components/Button.tsx');
  });

  it('streams session results per query and completes each', async () => {
    const server = await start(undefined, undefined, undefined, { experimentalApi: true });
    const root = makeTree();
    assert.deepEqual(
      await server.call('fuzzyFileSearch/sessionStart', { sessionId: 's1', roots: [root] }),
      {},
    );
    assert.deepEqual(
      await server.call('fuzzyFileSearch/sessionUpdate', { sessionId: 's1', query: 'btn' }),
      {},
    );
    await server.notification('fuzzyFileSearch/sessionCompleted', (p) => p.sessionId === 's1');
    const updates = server
      .notifications('fuzzyFileSearch/sessionUpdated')
      .map((m) => m.params as { query: string; files: Match[] });
    assert.ok(updates.length >= 1 && updates.every((u) => u.query === 'btn'));
    assert.equal(updates.at(-1)!.files[0]!.path, 'src/components/Button.tsx');

    const again = await server.request('fuzzyFileSearch/sessionStart', { sessionId: 's1', roots: [root] });
    assert.match(again.error!.message, /already exists/);
    await server.call('fuzzyFileSearch/sessionStop', { sessionId: 's1' });
    const gone = await server.request('fuzzyFileSearch/sessionUpdate', { sessionId: 's1', query: 'x' });
    assert.equal(gone.error?.code, -32600);
    assert.match(gone.error!.message, /No fuzzy file search session s1/);
  });

  it('refuses relative, missing and non-folder roots, and sessions without experimentalApi', async () => {
    const server = await start();
    const root = makeTree();
    for (const roots of [['relative/dir'], [join(root, 'missing')], [join(root, 'README.md')], []]) {
      const response = await server.request('fuzzyFileSearch', { query: 'a', roots });
      assert.equal(response.error?.code, -32602, JSON.stringify(roots));
      assert.match(response.error!.message, /^Invalid params: roots: /);
    }
    const gated = await server.request('fuzzyFileSearch/sessionStart', { sessionId: 's', roots: [root] });
    assert.match(gated.error!.message, /requires experimentalApi capability/);
    assert.ok(server.alive);
  });
});
