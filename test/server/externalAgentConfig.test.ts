// externalAgentConfig/detect and /import against a real home and repository laid out as Claude Code
// leaves them: detection lists only what still has work, import copies CLAUDE.md and skills and adds
// MCP servers without touching anything that exists, and a repository's servers stay in its own
// project config, even when the repository's links lead to the user's own files.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, useServers } from '../support/serverProcess';

interface Item {
  itemType: string;
  cwd?: string | null;
  details?: { skills?: { name: string }[]; mcpServers?: { name: string }[] } | null;
}
interface Completed {
  importId: string;
  itemTypeResults: {
    itemType: string;
    successes: { target?: string | null }[];
    failures: { message: string }[];
  }[];
}

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

function layOut() {
  const home = tempDir('threadline-claude-user-');
  const threadlineHome = tempDir('threadline-claude-home-');
  const repo = tempDir('threadline-claude-repo-');
  write(join(home, '.claude', 'CLAUDE.md'), 'Use tabs.\n');
  write(
    join(home, '.claude', 'skills', 'review', 'SKILL.md'),
    '---\nname: review\ndescription: Review\n---\nLook.\n',
  );
  mkdirSync(join(home, '.claude', 'skills', 'notes'), { recursive: true });
  write(join(home, '.claude', 'skills', 'kept', 'SKILL.md'), '---\nname: kept\ndescription: new\n---\n');
  write(join(home, '.agents', 'skills', 'kept', 'SKILL.md'), 'the user’s own\n');
  const servers = {
    db: { command: 'node', args: ['db.js'], env: { DB: 'local' } },
    web: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
    old: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
  };
  write(join(home, '.claude.json'), JSON.stringify({ mcpServers: servers }));
  write(
    join(threadlineHome, 'config.toml'),
    '# my settings\nmodel = "m"\n\n[mcp_servers.web]\nurl = "http://x/mcp"\n',
  );
  write(join(repo, 'CLAUDE.md'), 'Repo rules.\n');
  write(join(repo, 'AGENTS.md'), 'Already here.\n');
  write(
    join(repo, '.mcp.json'),
    JSON.stringify({ mcpServers: { 'repo-tool': { command: 'npx', args: ['tool'] } } }),
  );
  return { home, threadlineHome, repo };
}

describe('externalAgentConfig/detect and /import', () => {
  const start = useServers();

  it('detects what is left, imports it without overwriting, and then detects nothing more', async () => {
    const { home, threadlineHome, repo } = layOut();
    const server = await start(threadlineHome, 'threadline_vscode', { HOME: home });
    const detect = () =>
      server.call<{ items: Item[]; connectors: unknown[] }>('externalAgentConfig/detect', {
        includeHome: true,
        cwds: [repo],
      });
    const { items, connectors } = await detect();
    assert.deepEqual(connectors, []);
    assert.deepEqual(
      items.map((i) => [i.itemType, i.cwd ?? null, i.details?.skills ?? i.details?.mcpServers ?? null]),
      [
        ['AGENTS_MD', null, null],
        ['SKILLS', null, [{ name: 'review' }]],
        ['MCP_SERVER_CONFIG', null, [{ name: 'db' }]],
        ['MCP_SERVER_CONFIG', repo, [{ name: 'repo-tool' }]],
      ],
    );

    const { importId } = await server.call<{ importId: string }>('externalAgentConfig/import', {
      migrationItems: items,
    });
    const done = (await server.notification('externalAgentConfig/import/completed')).params as Completed;
    assert.equal(done.importId, importId);
    assert.deepEqual(
      done.itemTypeResults.map((r) => [r.itemType, r.successes.length, r.failures.length]),
      [
        ['AGENTS_MD', 1, 0],
        ['SKILLS', 1, 0],
        ['MCP_SERVER_CONFIG', 2, 0],
      ],
    );
    assert.equal(readFileSync(join(threadlineHome, 'AGENTS.md'), 'utf8'), 'Use tabs.\n');
    assert.match(readFileSync(join(home, '.agents', 'skills', 'review', 'SKILL.md'), 'utf8'), /Look\./);
    assert.equal(
      readFileSync(join(home, '.agents', 'skills', 'kept', 'SKILL.md'), 'utf8'),
      'the user’s own\n',
    );
    const config = readFileSync(join(threadlineHome, 'config.toml'), 'utf8');
    assert.ok(
      config.startsWith('# my settings\nmodel = "m"\n\n[mcp_servers.web]\nurl = "http://x/mcp"\n'),
      config,
    );
    assert.match(config, /\[mcp_servers\.db\]\ncommand = "node"\nargs = \[ "db\.js" \]/);
    assert.doesNotMatch(config, /repo-tool|old/, 'a repository’s server never lands in the user’s config');
    assert.match(
      readFileSync(join(repo, '.threadline', 'config.toml'), 'utf8'),
      /\[mcp_servers\.repo-tool\]/,
    );
    assert.equal(readFileSync(join(repo, 'AGENTS.md'), 'utf8'), 'Already here.\n');

    assert.deepEqual((await detect()).items, []);
    server.assertSchemaClean();
  });

  it('refuses what would overwrite or escape, item by item, and keeps a broken config.toml as it is', async () => {
    const { home, threadlineHome, repo } = layOut();
    writeFileSync(join(threadlineHome, 'config.toml'), 'model = [broken\n');
    const server = await start(threadlineHome, 'threadline_vscode', { HOME: home });
    await server.call('externalAgentConfig/import', {
      migrationItems: [
        { itemType: 'AGENTS_MD', description: 'x', cwd: repo },
        {
          itemType: 'SKILLS',
          description: 'x',
          details: { skills: [{ name: '../../escape' }, { name: 'kept' }] },
        },
        { itemType: 'MCP_SERVER_CONFIG', description: 'x', details: { mcpServers: [{ name: 'db' }] } },
        { itemType: 'HOOKS', description: 'x' },
      ],
    });
    const done = (await server.notification('externalAgentConfig/import/completed')).params as Completed;
    const failures = Object.fromEntries(
      done.itemTypeResults.map((r) => [r.itemType, [r.successes.length, r.failures.map((f) => f.message)]]),
    );
    assert.deepEqual(failures.AGENTS_MD, [0, [`${join(repo, 'AGENTS.md')} already has content`]]);
    assert.deepEqual(failures.SKILLS, [
      0,
      ['"../../escape" is not a skill name', `${join(home, '.agents', 'skills', 'kept')} already exists`],
    ]);
    assert.match(
      String((failures.MCP_SERVER_CONFIG as [number, string[]])[1][0]),
      /config\.toml does not parse/,
    );
    assert.deepEqual(failures.HOOKS, [0, ['Threadline does not import HOOKS items']]);
    assert.equal(readFileSync(join(threadlineHome, 'config.toml'), 'utf8'), 'model = [broken\n');
    assert.equal(readFileSync(join(repo, 'AGENTS.md'), 'utf8'), 'Already here.\n');
    assert.ok(!existsSync(join(home, 'escape')));
    const relative = await server.request('externalAgentConfig/detect', { cwds: ['relative/repo'] });
    assert.match(relative.error!.message, /cwd: relative\/repo is not an absolute path/);
    server.assertSchemaClean();
  });

  it('refuses a repository whose links lead out of it: into the user’s config, keys and skills', async () => {
    const { home, threadlineHome, repo } = layOut();
    const userConfig = readFileSync(join(threadlineHome, 'config.toml'), 'utf8');
    // .threadline is the user's own config folder; AGENTS.md is the user's (empty) authorized_keys;
    // .agents is the user's own .agents, so the repository's skills would become the user's.
    symlinkSync(threadlineHome, join(repo, '.threadline'));
    const keys = join(home, '.ssh', 'authorized_keys');
    write(keys, '');
    writeFileSync(join(repo, 'CLAUDE.md'), 'ssh-ed25519 AAAA attacker\n');
    const agentsMd = join(repo, 'AGENTS.md');
    rmSync(agentsMd);
    symlinkSync(keys, agentsMd);
    symlinkSync(join(home, '.agents'), join(repo, '.agents'));
    write(
      join(repo, '.claude', 'skills', 'deploy', 'SKILL.md'),
      '---\nname: deploy\ndescription: x\n---\nEvil.\n',
    );
    // A second repository reads the user's own CLAUDE.md through a link, to publish it.
    const other = tempDir('threadline-claude-repo-');
    symlinkSync(join(home, '.claude', 'CLAUDE.md'), join(other, 'CLAUDE.md'));
    const server = await start(threadlineHome, 'threadline_vscode', { HOME: home });

    const detected = await server.call<{ items: Item[] }>('externalAgentConfig/detect', {
      includeHome: false,
      cwds: [repo, other],
    });
    assert.deepEqual(detected.items, [], 'nothing that would leave the repository is offered');

    await server.call('externalAgentConfig/import', {
      migrationItems: [
        { itemType: 'AGENTS_MD', description: 'x', cwd: repo },
        { itemType: 'SKILLS', description: 'x', cwd: repo, details: { skills: [{ name: 'deploy' }] } },
        {
          itemType: 'MCP_SERVER_CONFIG',
          description: 'x',
          cwd: repo,
          details: { mcpServers: [{ name: 'repo-tool' }] },
        },
        { itemType: 'AGENTS_MD', description: 'x', cwd: other },
        { itemType: 'AGENTS_MD', description: 'x', cwd: home },
      ],
    });
    const done = (await server.notification('externalAgentConfig/import/completed')).params as Completed;
    const results = Object.fromEntries(
      done.itemTypeResults.map((r) => [r.itemType, [r.successes.length, r.failures.map((f) => f.message)]]),
    );
    assert.deepEqual(results.AGENTS_MD, [
      0,
      [
        `${agentsMd} leads to ${keys}, outside the repository ${repo}`,
        `${join(other, 'CLAUDE.md')} leads to ${join(home, '.claude', 'CLAUDE.md')}, outside the repository ${other}`,
        `${home} is (or holds) your home folder: its files are your own setup, not a repository's`,
      ],
    ]);
    assert.deepEqual(results.SKILLS, [
      0,
      [
        `${join(repo, '.agents', 'skills', 'deploy')} leads to ${join(home, '.agents', 'skills', 'deploy')}, outside the repository ${repo}`,
      ],
    ]);
    assert.deepEqual(results.MCP_SERVER_CONFIG, [
      0,
      [
        `${join(repo, '.threadline', 'config.toml')} leads to ${join(threadlineHome, 'config.toml')}, outside the repository ${repo}`,
      ],
    ]);
    assert.equal(readFileSync(keys, 'utf8'), '', 'authorized_keys is as it was');
    assert.equal(readFileSync(join(threadlineHome, 'config.toml'), 'utf8'), userConfig);
    assert.ok(!existsSync(join(home, '.agents', 'skills', 'deploy')), 'no skill landed in the user’s skills');
    assert.ok(!existsSync(join(other, 'AGENTS.md')));
    assert.ok(!existsSync(join(home, 'AGENTS.md')));
    server.assertSchemaClean();
  });

  it('follows a link that stays inside the repository, and writes where it really leads', async () => {
    const { home, threadlineHome, repo } = layOut();
    write(join(repo, 'docs', 'AGENTS.md'), '');
    rmSync(join(repo, 'AGENTS.md'));
    symlinkSync(join('docs', 'AGENTS.md'), join(repo, 'AGENTS.md'));
    const server = await start(threadlineHome, 'threadline_vscode', { HOME: home });
    const { items } = await server.call<{ items: Item[] }>('externalAgentConfig/detect', {
      includeHome: false,
      cwds: [repo],
    });
    assert.deepEqual(
      items.map((i) => i.itemType),
      ['AGENTS_MD', 'MCP_SERVER_CONFIG'],
    );
    await server.call('externalAgentConfig/import', { migrationItems: items });
    const done = (await server.notification('externalAgentConfig/import/completed')).params as Completed;
    assert.deepEqual(
      done.itemTypeResults.map((r) => [r.itemType, r.successes.length, r.failures.length]),
      [
        ['AGENTS_MD', 1, 0],
        ['MCP_SERVER_CONFIG', 1, 0],
      ],
    );
    assert.equal(readFileSync(join(repo, 'docs', 'AGENTS.md'), 'utf8'), 'Repo rules.\n');
    assert.match(readFileSync(join(repo, '.threadline', 'config.toml'), 'utf8'), /repo-tool/);
    server.assertSchemaClean();
  });
});
