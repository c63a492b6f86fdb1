import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Thread } from '../../server/protocol/thread';
import type { RolloutRecord } from '../../server/threads/records';
import { MAX_IMPORT_BYTES } from '../../server/threads/rolloutImport';
import { tempDir, useServers } from '../support/serverProcess';
import { writeRollout } from '../support/rollouts';

const experimental = { experimentalApi: true };

/** A thread exported elsewhere: a command, a patch, a rename, a dropped turn and one left open. */
function exportedRollout(dir: string): string {
  const { path } = writeRollout(dir, {
    cwd: '/somewhere/else',
    modelProvider: 'someone-elses-provider',
    name: 'Fix the flaky test',
    turns: [
      { id: 'turn-1', userText: 'Run the tests', answer: 'They pass now.' },
      { id: 'turn-2', userText: 'Dropped later', answer: 'gone' },
      { id: 'turn-3', userText: 'Still running when exported', completed: false },
    ],
  });
  const ts = Date.now();
  const more: RolloutRecord[] = [
    {
      type: 'item',
      ts,
      turnId: 'turn-1',
      item: {
        type: 'commandExecution',
        id: 'cmd-1',
        command: 'npm test',
        cwd: '/somewhere/else',
        commandActions: [],
        status: 'completed',
        aggregatedOutput: '\u001b[32m3 passing\u001b[0m\n',
        exitCode: 0,
        durationMs: 1200,
      },
    },
    {
      type: 'item',
      ts,
      turnId: 'turn-1',
      item: {
        type: 'fileChange',
        id: 'patch-1',
        status: 'completed',
        changes: [
          { path: 'src/a.ts', kind: { type: 'update', move_path: null }, diff: '@@ -1 +1 @@\n-a\n+b\n' },
        ],
      },
    },
    { type: 'revert', ts, beforeTurnId: 'turn-2' },
  ];
  // turn-3 was started before the revert of turn-2 in this made-up history: put the revert first.
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  const turn3 = lines.findIndex((l) => l.includes('"turn-3"'));
  lines.splice(turn3, 0, ...more.map((r) => JSON.stringify(r)));
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('thread/import: an exported rollout becomes a new thread', () => {
  const start = useServers();

  it('copies the turns (command, patch, name) into a new thread that runs with this server settings', async () => {
    const elsewhere = tempDir();
    const file = exportedRollout(elsewhere);
    const server = await start(undefined, undefined, undefined, experimental);
    const cwd = tempDir();
    const { thread } = await server.call<{ thread: Thread }>('thread/import', { path: file, cwd });
    assert.equal(thread.cwd, cwd, 'the folder given, not the one in the file');
    assert.notEqual(thread.modelProvider, 'someone-elses-provider');
    assert.equal(thread.name, 'Fix the flaky test');
    assert.equal(thread.forkedFromId, null);
    assert.ok(thread.path && thread.path.startsWith(server.home) && existsSync(thread.path));
    assert.deepEqual(
      thread.turns.map((t) => [t.id, t.status]),
      [
        ['turn-1', 'completed'],
        ['turn-3', 'interrupted'],
      ],
    );
    const items = thread.turns[0].items;
    assert.deepEqual(
      items.map((i) => i.type),
      ['userMessage', 'agentMessage', 'commandExecution', 'fileChange'],
    );
    const started = await server.notification('thread/started');
    assert.equal((started.params as { thread: Thread }).thread.id, thread.id);
    // Listed and readable like any thread, and it survives a restart.
    await server.stop();
    const again = await start(server.home, undefined, undefined, experimental);
    const read = await again.call<{ thread: Thread }>('thread/read', {
      threadId: thread.id,
      includeTurns: true,
    });
    assert.deepEqual(read.thread.turns, thread.turns);
    const listed = await again.call<{ data: Thread[] }>('thread/list', { cwd });
    assert.deepEqual(
      listed.data.map((t) => t.id),
      [thread.id],
    );
    // The original file is left as it was.
    assert.ok(existsSync(file));
  });

  it('refuses a file that is not a valid rollout, all or nothing, and keeps serving', async () => {
    const server = await start(undefined, undefined, undefined, experimental);
    const dir = tempDir();
    const good = exportedRollout(dir);
    const lines = readFileSync(good, 'utf8').trimEnd().split('\n');
    const cases: [string, string, RegExp][] = [
      ['not-json.jsonl', `${lines[0]}\n{oops\n`, /line 2 .* not a Threadline rollout record/],
      [
        'bad-item.jsonl',
        `${lines[0]}\n${JSON.stringify({ type: 'turn_started', ts: 1, turnId: 't' })}\n${JSON.stringify({
          type: 'item',
          ts: 1,
          turnId: 't',
          item: { type: 'commandExecution', id: 'x', command: 42 },
        })}\n`,
        /line 3 .* not a valid thread item/,
      ],
      ['no-meta.jsonl', lines.slice(1).join('\n'), /first line does not describe a thread/],
      ['two-threads.jsonl', `${lines[0]}\n${lines[0]}\n`, /line 2 .* second thread/],
      ['empty.jsonl', '', /first line does not describe a thread/],
    ];
    for (const [name, text, message] of cases) {
      const path = join(dir, name);
      writeFileSync(path, text);
      const refused = await server.request('thread/import', { path });
      assert.equal(refused.error?.code, -32602, name);
      assert.match(refused.error!.message, message, name);
    }
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, '');
    truncateSync(big, MAX_IMPORT_BYTES + 1);
    const tooBig = await server.request('thread/import', { path: big });
    assert.match(tooBig.error!.message, /may be at most 67108864 bytes/);
    const folder = join(dir, 'folder.jsonl');
    mkdirSync(folder);
    assert.match((await server.request('thread/import', { path: folder })).error!.message, /is not a file/);
    const missing = await server.request('thread/import', { path: join(dir, 'missing.jsonl') });
    assert.match(missing.error!.message, /cannot read .*missing\.jsonl: ENOENT/);
    // Nothing was created by any of them; the server still answers.
    assert.deepEqual((await server.call<{ data: Thread[] }>('thread/list')).data, []);
    assert.equal(existsSync(join(server.home, 'sessions')), false);
  });

  it('is experimental: a client that did not opt in is refused', async () => {
    const server = await start();
    const file = exportedRollout(tempDir());
    const refused = await server.request('thread/import', { path: file });
    assert.ok(refused.error, 'refused');
    assert.match(refused.error.message, /experimentalApi/);
  });
});
