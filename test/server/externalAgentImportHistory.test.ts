// The import history through the built server: externalAgentConfig/import/recordHistory and
// /readHistories, schema-checked, kept in the home across a restart, our own imports in it too,
// bounded, and a link planted in the history file's place never read through.
import { strict as assert } from 'node:assert';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, useServers } from '../support/serverProcess';

interface History {
  importId: string;
  providerId?: string | null;
  completedAtMs: number;
  successes: Record<string, unknown>[];
  failures: Record<string, unknown>[];
}
type Histories = { data: History[]; connectors: unknown[] };

const results = [
  {
    itemType: 'SKILLS',
    successes: [{ itemType: 'SKILLS', source: '/a/skills/x', target: '/b/skills/x' }],
    failures: [{ itemType: 'SKILLS', failureStage: 'copy', message: 'exists', source: '/a/skills/y' }],
  },
  {
    itemType: 'SESSIONS',
    successes: [{ itemType: 'SESSIONS', source: '/a/s.jsonl', title: 'Fix the build' }],
    failures: [],
  },
];

describe('externalAgentConfig import history', () => {
  const start = useServers();

  it('records an import a client completed, reads it back newest first, and keeps it across a restart', async () => {
    const home = tempDir();
    let server = await start(home);
    assert.deepEqual(await server.call('externalAgentConfig/import/readHistories', {}), {
      data: [],
      connectors: [],
    });
    const before = Date.now();
    const { importId } = await server.call<{ importId: string }>('externalAgentConfig/import/recordHistory', {
      providerId: 'claude-desktop',
      itemTypeResults: results,
    });
    const second = await server.call<{ importId: string }>('externalAgentConfig/import/recordHistory', {
      providerId: 'other',
      itemTypeResults: [],
    });
    const read = await server.call<Histories>('externalAgentConfig/import/readHistories');
    assert.deepEqual(
      read.data.map((h) => h.importId),
      [second.importId, importId],
    );
    const entry = read.data[1]!;
    assert.ok(entry.completedAtMs >= before && entry.completedAtMs <= Date.now());
    assert.deepEqual(entry, {
      importId,
      providerId: 'claude-desktop',
      completedAtMs: entry.completedAtMs,
      successes: [
        { itemType: 'SKILLS', source: '/a/skills/x', target: '/b/skills/x', title: null },
        { itemType: 'SESSIONS', source: '/a/s.jsonl', title: 'Fix the build' },
      ],
      failures: [{ itemType: 'SKILLS', failureStage: 'copy', message: 'exists', source: '/a/skills/y' }],
    });
    await server.stop();

    server = await start(home);
    assert.deepEqual(await server.call('externalAgentConfig/import/readHistories'), read);
    server.assertSchemaClean();
  });

  it('keeps our own finished imports too', async () => {
    const server = await start(tempDir(), 'threadline_vscode', { HOME: tempDir() });
    const { importId } = await server.call<{ importId: string }>('externalAgentConfig/import', {
      migrationItems: [{ itemType: 'AGENTS_MD', description: 'CLAUDE.md', cwd: null }],
      providerId: 'claude',
    });
    await server.notification('externalAgentConfig/import/completed');
    const { data } = await server.call<Histories>('externalAgentConfig/import/readHistories');
    assert.equal(data.length, 1);
    assert.equal(data[0]!.importId, importId);
    assert.equal(data[0]!.providerId, 'claude');
    assert.equal(data[0]!.successes.length + data[0]!.failures.length, 1);
    server.assertSchemaClean();
  });

  it('answers bad params with -32602, refuses an oversized record and keeps only the newest 100', async () => {
    const server = await start();
    const invalid: unknown[] = [
      {},
      { providerId: 'p' },
      { itemTypeResults: [] },
      { providerId: 3, itemTypeResults: [] },
      { providerId: 'p', itemTypeResults: [{ itemType: 'NOPE', successes: [], failures: [] }] },
      { providerId: 'p', itemTypeResults: [{ itemType: 'SKILLS', successes: [{}], failures: [] }] },
      {
        providerId: 'p',
        itemTypeResults: [
          {
            itemType: 'SKILLS',
            successes: [{ itemType: 'SKILLS', source: 'x'.repeat(300 * 1024) }],
            failures: [],
          },
        ],
      },
    ];
    for (const params of invalid) {
      const answer = await server.request('externalAgentConfig/import/recordHistory', params);
      assert.equal(answer.error?.code, -32602, JSON.stringify(params).slice(0, 200));
    }
    const ids: string[] = [];
    for (let i = 0; i < 101; i++) {
      const { importId } = await server.call<{ importId: string }>(
        'externalAgentConfig/import/recordHistory',
        {
          providerId: `p${i}`,
          itemTypeResults: [],
        },
      );
      ids.push(importId);
    }
    const { data } = await server.call<Histories>('externalAgentConfig/import/readHistories');
    assert.equal(data.length, 100);
    assert.equal(data[0]!.importId, ids[100]);
    assert.ok(!data.some((h) => h.importId === ids[0]), 'the oldest is dropped');
    server.assertSchemaClean();
  });

  it('does not read a history file that is a link', async () => {
    const home = tempDir();
    const outside = join(tempDir(), 'planted.json');
    writeFileSync(
      outside,
      JSON.stringify({
        version: 1,
        imports: [{ importId: 'planted', providerId: null, completedAtMs: 1, successes: [], failures: [] }],
      }),
    );
    symlinkSync(outside, join(home, 'external-agent-imports.json'));
    const server = await start(home);
    const { data } = await server.call<Histories>('externalAgentConfig/import/readHistories');
    assert.deepEqual(data, []);
    server.assertSchemaClean();
  });
});
