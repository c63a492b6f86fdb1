// The user's Codex history beside ours: the real server process reads a Codex home holding real
// rollouts written by codex app-server 0.169 (test/fixtures/codexRollouts), lists and reads them,
// continues one in its own home as a fork, and never writes into the Codex home.
import { strict as assert } from 'node:assert';
import { appendFileSync, cpSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ThreadItem } from '../../server/protocol/items';
import type { Thread } from '../../server/protocol/thread';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, runTurn } from '../support/agent';
import { tempDir, useServers } from '../support/serverProcess';

const fixture = resolve(__dirname, '..', 'fixtures', 'codexRollouts');
const PLAIN = '01a20a52-548a-7be0-9c2c-2d5a267fc417';

/** Every file under a folder with its size and mtime: what "nothing was written" is checked against. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const info = statSync(path);
    out[path] = entry.isFile() ? `${info.size}:${info.mtimeMs}` : 'dir';
  }
  return out;
}

function codexHome(): string {
  const home = tempDir('threadline-codex-home-');
  for (const name of ['sessions', 'archived_sessions', 'session_index.jsonl']) {
    cpSync(join(fixture, name), join(home, name), { recursive: true, preserveTimestamps: true });
  }
  return home;
}

const byPreview = (threads: Thread[], preview: string) =>
  threads.find((t) => t.preview === preview) ?? assert.fail(`no thread with the preview "${preview}"`);

describe('app-server over stdio: the Codex history', () => {
  const start = useServers();
  const model = useModelServer();

  it('lists Codex threads with their own source, provider, cwd, name, preview and times', async () => {
    const codex = codexHome();
    const server = await start(undefined, 'threadline_vscode', { CODEX_HOME: codex });
    const { data } = await server.call<{ data: Thread[] }>('thread/list', { limit: 50 });
    assert.deepEqual(data.map((t) => t.preview).sort(), [
      'Change notes.txt to say after',
      'Run echo fixture-output',
      'Say hello',
      'Say hello',
      'Tell me something long',
      'Why name a thread?',
    ]);
    for (const thread of data) {
      assert.equal(thread.source, 'vscode');
      assert.equal(thread.modelProvider, 'scripted');
      assert.equal(thread.model, 'test-model');
      assert.equal(thread.cliVersion, '0.169.0');
      assert.equal(thread.originator, 'codex_fixture_generator');
      assert.match(thread.cwd, /^\/.*threadline-codex-fixture-ws-/);
      assert.ok(thread.path?.startsWith(join(codex, 'sessions')), thread.path ?? 'no path');
      assert.equal(thread.status.type, 'notLoaded');
      assert.ok(thread.updatedAt >= thread.createdAt);
    }
    assert.deepEqual(
      data.map((t) => t.createdAt),
      [...data.map((t) => t.createdAt)].sort((a, b) => b - a),
      'newest first',
    );
    assert.equal(byPreview(data, 'Why name a thread?').name, 'A named Codex thread');
    const fork = data.find((t) => t.forkedFromId !== null)!;
    assert.equal(fork.forkedFromId, PLAIN);
    assert.equal(fork.preview, 'Say hello', "a fork's preview comes from the history it shares");

    const archived = await server.call<{ data: Thread[] }>('thread/list', { archived: true });
    assert.deepEqual(
      archived.data.map((t) => t.preview),
      ['Archive me afterwards'],
    );
    const named = await server.call<{ data: Thread[] }>('thread/list', { searchTerm: 'named codex' });
    assert.deepEqual(
      named.data.map((t) => t.name),
      ['A named Codex thread'],
    );
  });

  it('reads turns and items: answers, commands, file edits, compaction, a fork with its parent history', async () => {
    const server = await start(undefined, 'threadline_vscode', { CODEX_HOME: codexHome() });
    const { data } = await server.call<{ data: Thread[] }>('thread/list', { limit: 50 });
    const read = async (thread: Thread) =>
      (await server.call<{ thread: Thread }>('thread/read', { threadId: thread.id, includeTurns: true }))
        .thread;
    const items = (thread: Thread) => thread.turns.flatMap((turn) => turn.items);
    const texts = (thread: Thread) =>
      items(thread).map((item: ThreadItem) =>
        item.type === 'userMessage'
          ? `user: ${item.content.map((c) => (c.type === 'text' ? c.text : '')).join('')}`
          : item.type === 'agentMessage'
            ? `agent: ${item.text}`
            : item.type,
      );

    const plain = await read(
      byPreview(
        data.filter((t) => !t.forkedFromId),
        'Say hello',
      ),
    );
    assert.equal(plain.id, PLAIN);
    assert.deepEqual(texts(plain), [
      'user: Say hello',
      'agent: Hello from the reference server.',
      'user: Are you there?',
      'agent: Still here.',
    ]);
    assert.deepEqual(
      plain.turns.map((t) => t.status),
      ['completed', 'completed'],
    );
    assert.ok(plain.turns.every((t) => t.startedAt !== null && t.completedAt !== null));

    const command = await read(byPreview(data, 'Run echo fixture-output'));
    const run = items(command).find((i) => i.type === 'commandExecution');
    assert.ok(run?.type === 'commandExecution');
    assert.equal(run.command, 'echo fixture-output');
    assert.equal(run.aggregatedOutput, 'fixture-output\n');
    assert.equal(run.exitCode, 0);
    assert.equal(run.status, 'completed');
    assert.match(run.cwd, /^\/.*threadline-codex-fixture-ws-/);

    const edit = await read(byPreview(data, 'Change notes.txt to say after'));
    const change = items(edit).find((i) => i.type === 'fileChange');
    assert.ok(change?.type === 'fileChange');
    assert.equal(change.status, 'completed');
    assert.equal(change.changes.length, 1);
    assert.match(change.changes[0]!.path, /notes\.txt$/);
    assert.equal(change.changes[0]!.diff, '@@ -1 +1 @@\n-before\n+after\n');

    const compacted = await read(byPreview(data, 'Tell me something long'));
    assert.deepEqual(texts(compacted), [
      'user: Tell me something long',
      'agent: First answer before compaction.',
      'contextCompaction',
      'user: And after compaction?',
      'agent: Answer after compaction.',
    ]);

    const fork = await read(data.find((t) => t.forkedFromId === PLAIN)!);
    assert.deepEqual(texts(fork), texts(plain), 'the fork shows the turns it shares with its parent');
  });

  it('continues a Codex thread in our home as a fork that remembers it; the model gets its history; the Codex home is untouched', async () => {
    const codex = codexHome();
    const before = tree(codex);
    const home = agentHome('responses', model.baseUrl);
    const server = await start(home, 'threadline_vscode', { CODEX_HOME: codex, ...agentEnv });

    const resumed = await server.call<{ thread: Thread }>('thread/resume', { threadId: PLAIN });
    const continued = resumed.thread;
    assert.notEqual(continued.id, PLAIN);
    assert.equal(continued.forkedFromId, PLAIN);
    assert.ok(continued.path?.startsWith(join(home, 'sessions')), continued.path ?? 'no path');
    assert.equal(continued.turns.length, 2, 'with the Codex turns');

    model.script({ output: [{ text: 'Continued in Threadline.' }] });
    const turn = await runTurn(server, continued.id, 'Go on');
    assert.equal(turn.status, 'completed');
    const sent = JSON.stringify(model.requests.at(-1)?.body);
    for (const said of [
      'Say hello',
      'Hello from the reference server.',
      'Are you there?',
      'Still here.',
      'Go on',
    ]) {
      assert.ok(sent.includes(said), `the model sees "${said}"`);
    }
    assert.ok(!sent.includes('<environment_context>'), "Codex's own context is not replayed");

    // A second resume continues the same fork rather than starting another.
    const again = await server.call<{ thread: Thread }>('thread/resume', { threadId: PLAIN });
    assert.equal(again.thread.id, continued.id);

    // Both listed: the Codex thread and its continuation, which is ours.
    const { data } = await server.call<{ data: Thread[] }>('thread/list', { limit: 50 });
    assert.ok(data.some((t) => t.id === PLAIN));
    assert.equal(data.find((t) => t.id === continued.id)?.preview, 'Say hello');

    // An explicit fork, up to the first turn, also lands in our home.
    const plain = (
      await server.call<{ thread: Thread }>('thread/read', { threadId: PLAIN, includeTurns: true })
    ).thread;
    const forked = await server.call<{ thread: Thread }>('thread/fork', {
      threadId: PLAIN,
      lastTurnId: plain.turns[0]!.id,
    });
    assert.equal(forked.thread.forkedFromId, PLAIN);
    assert.equal(forked.thread.turns.length, 1);
    assert.ok(forked.thread.path?.startsWith(home));

    assert.deepEqual(tree(codex), before, 'nothing in the Codex home changed');
  });

  it('refuses to change a Codex thread, with a clear error, and changes nothing', async () => {
    const codex = codexHome();
    const before = tree(codex);
    const server = await start(undefined, 'threadline_vscode', { CODEX_HOME: codex });
    for (const [method, params] of [
      ['thread/name/set', { threadId: PLAIN, name: 'Renamed' }],
      ['thread/archive', { threadId: PLAIN }],
      ['thread/rollback', { threadId: PLAIN, numTurns: 1 }],
      ['thread/delete', { threadId: PLAIN }],
      ['turn/start', { threadId: PLAIN, input: [{ type: 'text', text: 'hi' }] }],
    ] as const) {
      const response = await server.request(method, params);
      assert.equal(response.error?.code, -32602, `${method}: ${JSON.stringify(response)}`);
      assert.match(response.error!.message, /Codex history.*resume or fork/, method);
    }
    assert.deepEqual(tree(codex), before);
    assert.ok(server.alive);
  });

  it('remembers files it cannot read by size and mtime, and reads them again once they change', async () => {
    const codex = codexHome();
    const day = join(codex, 'sessions', '2026', '01', '02');
    mkdirSync(day, { recursive: true });
    const junk = join(day, 'rollout-2026-01-02T03-04-05-01a20a52-0000-7000-8000-000000000000.jsonl');
    writeFileSync(junk, 'this is not a rollout\n');
    // Older than a minute: not a file another process is still writing.
    const old = new Date(Date.now() - 3_600_000);
    const age = (path: string) => utimesSync(path, old, old);
    age(junk);
    age(day);
    const home = tempDir('threadline-home-');
    const mentions = (stderr: string) => stderr.split('\n').filter((line) => line.includes(junk)).length;

    const first = await start(home, 'threadline_vscode', { CODEX_HOME: codex });
    await first.call('thread/list');
    await first.stop();
    assert.ok(mentions(first.stderr) > 0, first.stderr);

    // The folder changes (another thread arrives), so it is read again: the unreadable file is not.
    writeFileSync(join(day, 'notes.txt'), 'x');
    const second = await start(home, 'threadline_vscode', { CODEX_HOME: codex });
    await second.call('thread/list');
    await second.stop();
    assert.equal(mentions(second.stderr), 0, second.stderr);

    appendFileSync(junk, 'still not\n');
    age(junk);
    writeFileSync(join(day, 'more.txt'), 'x');
    const third = await start(home, 'threadline_vscode', { CODEX_HOME: codex });
    await third.call('thread/list');
    assert.ok(mentions(third.stderr) > 0, 'read again after it changed');
  });

  it('reads no Codex history when config.toml says codex_history = false', async () => {
    const home = tempDir('threadline-home-');
    writeFileSync(join(home, 'config.toml'), 'codex_history = false\n');
    const server = await start(home, 'threadline_vscode', { CODEX_HOME: codexHome() });
    assert.deepEqual((await server.call<{ data: Thread[] }>('thread/list')).data, []);
  });

  it('reads the Codex history from the folder codex_history names', async () => {
    const home = tempDir('threadline-home-');
    writeFileSync(join(home, 'config.toml'), `codex_history = "${codexHome()}"\n`);
    const server = await start(home, 'threadline_vscode', { CODEX_HOME: join(home, 'absent') });
    assert.equal((await server.call<{ data: Thread[] }>('thread/list', { limit: 50 })).data.length, 6);
  });
});
