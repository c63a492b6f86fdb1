// A home that cannot be written: a real tmpfs of 2 MiB that fills up, and the same remounted
// read-only. Every turn still starts and ends (failed, saying what was not saved and why), the
// server stays up, reading still works, and once there is room again the next turn is saved.
// Mounting needs root: elsewhere the suite is skipped with the reason printed.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, rmSync, truncateSync, writeFileSync, writeSync, fstatSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { AgentMessageItem } from '../../server/protocol/items';
import type { Thread, Turn } from '../../server/protocol/thread';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, runTurn, scriptedConfig, startTurn, turnCompleted, turnEvents } from '../support/agent';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';

const FILLER = 'filler';

/** Fills the file system holding `home` to the last byte, then frees `leaveBytes` of it. */
function fill(home: string, leaveBytes = 0): void {
  const fd = openSync(join(home, FILLER), 'a');
  try {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (;;) {
      try {
        writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        break;
      }
    }
    const { size } = fstatSync(fd);
    if (leaveBytes) truncateSync(join(home, FILLER), Math.max(0, size - leaveBytes));
  } finally {
    closeSync(fd);
  }
}

const umount = (dir: string) => execFileSync('umount', ['-l', dir], { stdio: 'ignore' });

describe('a home that cannot be written', function () {
  const model = useModelServer();
  const start = useServers();
  const mounted: string[] = [];
  // After useServers' own afterEach: the servers are gone before their home is.
  afterEach(() => {
    for (const dir of mounted.splice(0)) umount(dir);
  });

  before(function () {
    const reason =
      process.getuid?.() !== 0
        ? 'not running as root, so a tmpfs cannot be mounted'
        : (() => {
            const probe = tempDir('threadline-tmpfs-probe-');
            try {
              execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
              umount(probe);
              return undefined;
            } catch (error) {
              return `mounting a tmpfs failed: ${(error as Error).message.split('\n')[0]}`;
            }
          })();
    if (reason) {
      console.log(`      skipped (${reason})`);
      this.skip();
    }
  });

  /** A 2 MiB tmpfs as a home whose config sends turns to the scripted model server. */
  function tmpfsHome(): string {
    const home = tempDir('threadline-tmpfs-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', home]);
    mounted.push(home);
    writeFileSync(join(home, 'config.toml'), scriptedConfig(model.baseUrl, { streamMaxRetries: 0 }));
    return home;
  }

  const serve = (home: string) => start(home, 'threadline_vscode', agentEnv);

  async function newThread(server: ServerProcess): Promise<Thread> {
    return (await server.call<{ thread: Thread }>('thread/start', {})).thread;
  }

  async function turnsOf(server: ServerProcess, threadId: string): Promise<Turn[]> {
    const read = await server.call<{ thread: Thread }>('thread/read', { threadId, includeTurns: true });
    return read.thread.turns;
  }

  const answerOf = (turn: Turn) =>
    (turn.items.find((item) => item.type === 'agentMessage') as AgentMessageItem | undefined)?.text;

  /** Runs a turn that the disk cannot hold and checks how it ends; returns the ended turn. */
  async function unsavedTurn(
    server: ServerProcess,
    thread: Thread,
    why: RegExp,
    input = 'Write it all down',
  ): Promise<Turn> {
    const turn = await startTurn(server, thread.id, input);
    const done = await turnCompleted(server, turn.id);
    const events = turnEvents(server, turn.id);
    assert.equal(events[0], 'turn/started');
    assert.equal(events.at(-1), 'turn/completed');
    assert.equal(done.status, 'failed');
    assert.match(done.error!.message, /The turn was not saved/);
    assert.match(done.error!.message, why);
    assert.ok(
      done.error!.message.includes(basename(thread.path!)),
      `the error names the rollout: ${done.error!.message}`,
    );
    const errors = server
      .notifications('error')
      .map((m) => m.params as { turnId: string; willRetry: boolean });
    assert.deepEqual(
      errors.filter((e) => e.turnId === turn.id).map((e) => e.willRetry),
      [false],
      'one error, not one per write',
    );
    return done;
  }

  it('ends a turn the disk fills up during, failed and said so; the next turn is saved once there is room', async () => {
    const home = tmpfsHome();
    const server = await serve(home);
    const thread = await newThread(server);
    model.script({ output: [{ text: 'Saved answer.' }] });
    assert.equal((await runTurn(server, thread.id, 'First')).status, 'completed');

    // Room for the turn's start, not for its 256 KiB answer: the write stops part way into a line.
    fill(home, 16 * 1024);
    model.script({ output: [{ text: Array.from({ length: 64 }, () => 'x'.repeat(4096)) }] });
    const failed = await unsavedTurn(server, thread, /no space left on the disk \(ENOSPC\)/);

    rmSync(join(home, FILLER));
    model.script({ output: [{ text: 'Room again.' }] });
    assert.equal((await runTurn(server, thread.id, 'Again')).status, 'completed');

    const check = (turns: Turn[]) => {
      assert.deepEqual(
        turns.map((t) => t.status),
        ['completed', 'failed', 'completed'],
      );
      assert.equal(turns[1]!.id, failed.id);
      assert.equal(turns[1]!.error?.message, failed.error!.message);
      assert.equal(answerOf(turns[0]!), 'Saved answer.');
      assert.equal(answerOf(turns[2]!), 'Room again.');
    };
    check(await turnsOf(server, thread.id));
    // What is on disk says the same: the torn line is skipped, the next records start on a fresh line.
    await server.stop();
    const again = await serve(home);
    check(await turnsOf(again, thread.id));
  });

  it('fails a turn on a full disk before the model is asked, and refuses a new thread, with the reason', async () => {
    const home = tmpfsHome();
    const server = await serve(home);
    const thread = await newThread(server);
    fill(home);
    // A message longer than the page the rollout's last line left free.
    await unsavedTurn(server, thread, /ENOSPC/, 'y'.repeat(8192));
    assert.equal(model.requests.length, 0, 'nothing to save the answer to, so the model is not asked');

    const refused = await server.request('thread/start', {});
    assert.match(
      refused.error?.message ?? '',
      /cannot write .*sessions.*: no space left on the disk \(ENOSPC\); nothing was saved/,
    );
    // Reading goes on.
    const list = await server.call<{ data: Thread[] }>('thread/list', {});
    assert.deepEqual(
      list.data.map((t) => t.id),
      [thread.id],
    );
    // The turn's start made it to disk, its end waits for room: read now, it is failed all the same.
    const [turn] = await turnsOf(server, thread.id);
    assert.equal(turn?.status, 'failed');
    assert.match(turn.error!.message, /The turn was not saved: .*ENOSPC/);
    assert.ok(server.alive);
  });

  it('serves a read-only home: reading works, every write is refused with the reason, turns end failed', async () => {
    const home = tmpfsHome();
    const first = await serve(home);
    const thread = await newThread(first);
    model.script({ output: [{ text: 'Kept.' }] });
    assert.equal((await runTurn(first, thread.id, 'Keep this')).status, 'completed');
    await first.stop();
    execFileSync('mount', ['-o', 'remount,ro', home]);

    const server = await serve(home);
    const list = await server.call<{ data: Thread[] }>('thread/list', {});
    assert.deepEqual(
      list.data.map((t) => t.id),
      [thread.id],
    );
    assert.equal(answerOf((await turnsOf(server, thread.id))[0]!), 'Kept.');

    await unsavedTurn(server, thread, /the file system is read-only \(EROFS\)/);
    const writes: [string, Record<string, unknown>][] = [
      ['thread/start', {}],
      ['thread/fork', { threadId: thread.id }],
      ['thread/name/set', { threadId: thread.id, name: 'Renamed' }],
      ['thread/archive', { threadId: thread.id }],
      ['thread/delete', { threadId: thread.id }],
    ];
    for (const [method, params] of writes) {
      const answer = await server.request(method, params);
      assert.match(
        answer.error?.message ?? '',
        /^cannot write \/.*: the file system is read-only \(EROFS\); nothing was saved$/,
        method,
      );
    }
    assert.ok(server.alive);
    const after = await server.call<{ data: Thread[] }>('thread/list', {});
    assert.deepEqual(
      after.data.map((t) => [t.id, t.name]),
      [[thread.id, null]],
    );
  });
});
