import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseRecord } from '../../../../server/threads/records';
import { HistoryError, ThreadNotFoundError } from '../../../../server/threads/storeErrors';
import { newThread, recordingLog, turn, useHome } from './fixtures';

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

describe('ThreadStore: creating, reading and changing threads', () => {
  const { home, open } = useHome();

  it('creates a thread as a dated rollout whose first line describes it', async () => {
    const store = await open();
    const before = Math.floor(Date.now() / 1000);
    const summary = await store.create(
      newThread({ cwd: '/work/a', gitInfo: { sha: 'abc', branch: 'main', originUrl: null } }),
    );
    assert.match(summary.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(summary.createdAt >= before && summary.createdAt <= Date.now() / 1000, 'createdAt in seconds');
    assert.match(
      summary.path,
      /^sessions\/\d{4}\/\d\d\/\d\d\/rollout-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-[0-9a-f-]{36}\.jsonl$/,
    );
    const [first] = lines(join(home(), summary.path));
    const record = parseRecord(first!);
    assert.equal(record?.type, 'session_meta');
    assert.deepEqual(record.type === 'session_meta' && record.meta, {
      id: summary.id,
      createdAt: summary.createdAt,
      cwd: '/work/a',
      modelProvider: 'openai',
      model: 'gpt-5.1-codex',
      source: 'vscode',
      originator: null,
      cliVersion: '0.0.0-test',
      forkedFromId: null,
      gitInfo: { sha: 'abc', branch: 'main', originUrl: null },
    });
    assert.deepEqual(store.get(summary.id), summary);
    assert.deepEqual(store.list().data, [summary]);
  });

  it('reads back appended turns, and bumps updatedAt and the preview as they arrive', async () => {
    const store = await open();
    const { id, createdAt } = await store.create(newThread());
    const later = (createdAt + 5) * 1000;
    const summary = await store.append(id, turn('t1', '  Fix   the\nparser  ', later));
    assert.equal(summary.preview, 'Fix the parser');
    assert.equal(summary.updatedAt, createdAt + 5);
    await store.append(id, turn('t2', 'And the lexer', later + 1000));
    const history = await store.history(id);
    assert.deepEqual(
      history.turns.map((t) => [t.id, t.status, t.items.length, t.startedAt, t.completedAt, t.durationMs]),
      [
        ['t1', 'completed', 2, createdAt + 5, createdAt + 5, 2],
        ['t2', 'completed', 2, createdAt + 6, createdAt + 6, 2],
      ],
    );
    assert.equal(store.get(id)?.preview, 'Fix the parser', 'the first user message stays the preview');
    assert.equal(store.get(id)?.updatedAt, createdAt + 6);
  });

  it('returns a turn without a completion record as in progress, and can record it as interrupted', async () => {
    const store = await open();
    const { id } = await store.create(newThread());
    await store.append(id, turn('t1', 'done'));
    await store.append(id, turn('t2', 'cut off').slice(0, 2));
    assert.deepEqual(
      (await store.history(id)).turns.map((t) => t.status),
      ['completed', 'inProgress'],
    );
    const error = { message: 'The server stopped', codexErrorInfo: null, additionalDetails: null };
    const history = await store.interruptOpenTurns(id, error);
    assert.deepEqual(
      history.turns.map((t) => [t.status, t.error]),
      [
        ['completed', null],
        ['interrupted', error],
      ],
    );
    const reopened = await open();
    assert.equal((await reopened.history(id)).turns[1]!.status, 'interrupted', 'persisted');
  });

  it('keeps every append, in order, when many arrive at once, and none is lost to another', async () => {
    const store = await open();
    const { id } = await store.create(newThread());
    await store.append(id, [{ type: 'turn_started', ts: Date.now(), turnId: 't1' }]);
    const item = (n: number) => ({ type: 'agentMessage' as const, id: `i${n}`, text: 'x'.repeat(n * 50) });
    await Promise.all([
      ...Array.from({ length: 200 }, (_, n) =>
        store.append(id, [{ type: 'item', ts: Date.now(), turnId: 't1', item: item(n) }]),
      ),
      store.setName(id, 'Renamed meanwhile'),
    ]);
    const history = await store.history(id);
    assert.deepEqual(
      history.turns[0]!.items.map((i) => i.id),
      Array.from({ length: 200 }, (_, n) => `i${n}`),
    );
    assert.equal(store.get(id)?.name, 'Renamed meanwhile');
    assert.ok(
      lines(join(home(), store.get(id)!.path)).every((line) => parseRecord(line)),
      'no interleaved lines',
    );
  });

  it('persists threads, names, previews and times across a reopen', async () => {
    const first = await open();
    const a = await first.create(newThread({ cwd: '/work/a' }));
    const b = await first.create(newThread({ cwd: '/work/b', source: { custom: 'bot' } }));
    await first.append(a.id, turn('t1', 'Hello there'));
    await first.setName(b.id, 'Named');
    const before = [first.get(a.id), first.get(b.id)];
    await first.close();
    const second = await open();
    assert.deepEqual([second.get(a.id), second.get(b.id)], before);
    assert.equal((await second.history(a.id)).turns.length, 1);
  });

  it('never writes an ephemeral thread, yet reads and changes it in memory', async () => {
    const store = await open();
    const summary = await store.create(newThread({ ephemeral: true }));
    assert.equal(summary.path, '');
    assert.ok(store.isEphemeral(summary.id));
    await store.append(summary.id, turn('t1', 'Only in memory'));
    await store.setName(summary.id, 'Passing');
    assert.equal(store.get(summary.id)?.preview, 'Only in memory');
    assert.equal((await store.history(summary.id)).turns.length, 1);
    assert.deepEqual(store.list().data, [], 'not listed');
    assert.equal(existsSync(join(home(), 'sessions')), false, 'nothing written');
    await assert.rejects(store.archive(summary.id), HistoryError);
  });

  it('archives by moving the file to archived_sessions/ and unarchives it back to its dated folder', async () => {
    const store = await open();
    const kept = await store.create(newThread());
    const summary = await store.create(newThread());
    const dated = join(home(), summary.path);
    const archived = await store.archive(summary.id);
    assert.equal(archived.path, join('archived_sessions', basename(summary.path)));
    assert.ok(archived.archived);
    assert.ok(!existsSync(dated) && existsSync(join(home(), archived.path)), 'file moved');
    assert.deepEqual(
      store.list().data.map((t) => t.id),
      [kept.id],
    );
    assert.deepEqual(
      store.list({ archived: true }).data.map((t) => t.id),
      [summary.id],
    );
    await store.close();

    const reopened = await open();
    assert.ok(reopened.get(summary.id)?.archived, 'still archived after a reopen');
    assert.equal((await reopened.history(summary.id)).meta.id, summary.id, 'readable while archived');
    const back = await reopened.unarchive(summary.id);
    assert.deepEqual(back, { ...summary, archived: false });
    assert.ok(existsSync(dated) && readdirSync(join(home(), 'archived_sessions')).length === 0, 'moved back');
    assert.deepEqual(reopened.list({ archived: true }).data, []);
    assert.deepEqual(new Set(reopened.list().data.map((t) => t.id)), new Set([kept.id, summary.id]));
    await reopened.append(summary.id, turn('t1', 'Still writable'));
    assert.equal(reopened.get(summary.id)?.preview, 'Still writable');
  });

  it('names the id of a thread it does not have, for every operation', async () => {
    const store = await open();
    const id = '01900000-0000-7000-8000-000000000000';
    assert.throws(
      () => store.require(id),
      (e: Error) => e instanceof ThreadNotFoundError && e.message.includes(id),
    );
    assert.equal(store.get(id), undefined);
    for (const operation of [
      store.history(id),
      store.append(id, []),
      store.setName(id, 'x'),
      store.archive(id),
      store.unarchive(id),
      store.rollback(id, 1),
      store.revert(id, 't1'),
      store.fork(id, newThread()),
    ]) {
      await assert.rejects(
        operation,
        (e: Error) => e instanceof ThreadNotFoundError && e.message.includes(id),
      );
    }
  });

  it('treats a rollout deleted behind its back as a thread that is gone', async () => {
    const log = recordingLog();
    const store = await open(log);
    const { id, path } = await store.create(newThread());
    rmSync(join(home(), path));
    await assert.rejects(store.append(id, turn('t1', 'x')), ThreadNotFoundError);
    assert.equal(store.get(id), undefined, 'dropped from the index');
    assert.equal(existsSync(join(home(), path)), false, 'no headless file created');
    assert.ok(log.warnings.some((w) => w.includes(id)));
  });
});

describe('ThreadStore: rollback, revert and fork', () => {
  const { open } = useHome();

  async function threeTurns() {
    const store = await open();
    const { id } = await store.create(newThread());
    const start = Date.now() - 60_000;
    await store.append(id, turn('t1', 'first', start));
    await store.append(id, turn('t2', 'second', start + 10_000));
    await store.append(id, turn('t3', 'third', start + 20_000));
    return { store, id, start };
  }

  it('rolls back the last turns with a persisted marker that reads and resumes see', async () => {
    const { store, id } = await threeTurns();
    const history = await store.rollback(id, 2);
    assert.deepEqual(
      history.turns.map((t) => t.id),
      ['t1'],
    );
    await store.append(id, turn('t4', 'after the rollback'));
    await store.close();
    const reopened = await open();
    assert.deepEqual(
      (await reopened.history(id)).turns.map((t) => t.id),
      ['t1', 't4'],
    );
    await assert.rejects(reopened.rollback(id, 3), HistoryError, 'more turns than there are');
    await assert.rejects(reopened.rollback(id, 0), HistoryError);
  });

  it('reverts to just before a turn, and refreshes the preview when its message goes', async () => {
    const { store, id } = await threeTurns();
    assert.deepEqual(
      (await store.revert(id, 't2')).turns.map((t) => t.id),
      ['t1'],
    );
    await assert.rejects(store.revert(id, 't3'), HistoryError, 't3 is gone already');
    assert.equal(store.get(id)?.preview, 'first');
    await store.revert(id, 't1');
    assert.equal(store.get(id)?.preview, '', 'no user message left');
    assert.deepEqual((await store.history(id)).turns, []);
  });

  it('forks the whole history, or up to a turn, with the original times and forkedFromId', async () => {
    const { store, id } = await threeTurns();
    await store.rollback(id, 1);
    const source = await store.history(id);
    const whole = await store.fork(id, newThread({ cwd: '/work/fork' }));
    assert.equal(whole.forkedFromId, id);
    assert.equal(whole.cwd, '/work/fork');
    assert.equal(whole.preview, 'first');
    assert.deepEqual((await store.history(whole.id)).turns, source.turns, 'same turns, same times');
    const part = await store.fork(id, newThread(), 't1');
    assert.deepEqual(
      (await store.history(part.id)).turns.map((t) => t.id),
      ['t1'],
    );
    await assert.rejects(
      store.fork(id, newThread(), 't3'),
      HistoryError,
      'rolled back turns cannot be forked at',
    );
    await store.append(whole.id, turn('t9', 'only in the fork'));
    assert.equal((await store.history(id)).turns.length, 2, 'the source is untouched');
  });

  it('folds injected model entries after the turn they followed: rolled back with it, kept by a fork up to it', async () => {
    const store = await open();
    const { id } = await store.create(newThread());
    const note = (text: string) => ({
      type: 'injected' as const,
      ts: Date.now(),
      entries: [{ kind: 'developer', text }],
    });
    await store.append(id, [note('before any turn')]);
    await store.append(id, turn('t1', 'first'));
    await store.append(id, [note('after t1')]);
    await store.append(id, turn('t2', 'second'));
    await store.append(id, [note('after t2')]);
    const texts = async (threadId: string) =>
      (await store.history(threadId)).modelHistory.filter((e) => e.kind === 'developer').map((e) => e.text);
    assert.deepEqual(await texts(id), ['before any turn', 'after t1', 'after t2']);
    const fork = await store.fork(id, newThread(), 't1');
    assert.deepEqual(await texts(fork.id), ['before any turn', 'after t1'], 'the fork stops at t1');
    await store.rollback(id, 1);
    assert.deepEqual(await texts(id), ['before any turn', 'after t1'], 'dropped with t2');
  });
});
