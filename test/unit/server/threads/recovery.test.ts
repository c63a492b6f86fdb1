import { strict as assert } from 'node:assert';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ThreadStore } from '../../../../server/threads/threadStore';
import { JOURNAL, SNAPSHOT } from '../../../../server/threads/indexFiles';
import { writeRollout } from '../../../support/rollouts';
import { newThread, recordingLog, turn, useHome } from './fixtures';

const ids = (store: ThreadStore, archived = false) =>
  new Set(store.list({ limit: 200, archived, sourceKinds: [] }).data.map((t) => t.id));

describe('ThreadStore: damaged files and a stale index', () => {
  const { home, open } = useHome();

  it('skips a corrupt line and a line missing its fields, reporting each, and keeps the rest', async () => {
    const { id, path } = writeRollout(home(), {
      turns: [
        { id: 't1', userText: 'one', answer: 'a' },
        { id: 't2', userText: 'two', answer: 'b' },
      ],
    });
    const text = readFileSync(path, 'utf8').split('\n');
    // After turn t1 starts: a user message without content (odd, but well-formed), then three bad lines.
    text.splice(2, 0, '{"type":"item","ts":1,"turnId":"t1","item":{"type":"userMessage","id":"odd"}}');
    text.splice(4, 0, '{"type":"item","ts":1,"turnId":"t1","item":', '{"type":"item","ts":1}', '[1,2]');
    writeFileSync(path, text.join('\n'));
    const log = recordingLog();
    const store = await open(log);
    const history = await store.history(id);
    assert.deepEqual(
      history.turns.map((t) => [t.id, t.status, t.items.length]),
      [
        ['t1', 'completed', 3],
        ['t2', 'completed', 2],
      ],
    );
    assert.equal(store.get(id)?.preview, 'one');
    assert.deepEqual(
      [...new Set(log.warnings.map((w) => /skipping unreadable line (\d+) of .*rollout/.exec(w)?.[1]))],
      ['5', '6', '7'],
    );
  });

  it('skips a truncated last line, and the next append starts a fresh line after it', async () => {
    const { id, path } = writeRollout(home(), { turns: [{ id: 't1', userText: 'kept', answer: 'yes' }] });
    appendFileSync(path, '{"type":"turn_started","ts":17000');
    const log = recordingLog();
    const store = await open(log);
    assert.deepEqual(
      (await store.history(id)).turns.map((t) => t.id),
      ['t1'],
    );
    assert.ok(log.warnings.some((w) => w.includes('truncated last line')));
    await store.append(id, turn('t2', 'after the tear'));
    assert.deepEqual(
      (await store.history(id)).turns.map((t) => [t.id, t.status]),
      [
        ['t1', 'completed'],
        ['t2', 'completed'],
      ],
    );
    assert.match(readFileSync(path, 'utf8'), /"ts":17000\n\{"type":"turn_started"/);
  });

  it('leaves out a file whose first line is unreadable, and garbage, without hiding other threads', async () => {
    const good = writeRollout(home(), { turns: [{ id: 't1', userText: 'fine' }] });
    const headless = writeRollout(home(), { turns: [{ id: 't1', userText: 'no head' }] });
    const lines = readFileSync(headless.path, 'utf8').split('\n');
    writeFileSync(
      headless.path,
      ['{"type":"session_meta","ts":1,"meta":{"id":', ...lines.slice(1)].join('\n'),
    );
    const day = join(home(), 'sessions', '2025', '01', '02');
    mkdirSync(day, { recursive: true });
    writeFileSync(
      join(day, 'rollout-2025-01-02T03-04-05-01940000-0000-7000-8000-000000000000.jsonl'),
      '\0\u00ff garbage',
    );
    writeFileSync(join(day, 'rollout-2025-01-02T03-04-06-01940000-0000-7000-8000-000000000001.jsonl'), '');
    writeFileSync(join(day, 'notes.txt'), 'not a rollout');
    mkdirSync(join(home(), 'sessions', '2025', 'not-a-month'), { recursive: true });
    const log = recordingLog();
    const store = await open(log);
    assert.deepEqual(ids(store), new Set([good.id]));
    assert.equal(log.warnings.filter((w) => w.includes('does not describe a thread')).length, 3);
    assert.ok(!log.warnings.some((w) => w.includes('notes.txt')));
    const created = await store.create(newThread());
    assert.deepEqual(ids(store), new Set([good.id, created.id]), 'the store keeps working');
  });

  it('rebuilds a deleted index from the rollouts, archive state, names and previews included', async () => {
    const first = await open();
    const a = await first.create(newThread({ cwd: '/work/a' }));
    const b = await first.create(newThread({ cwd: '/work/b' }));
    await first.append(a.id, turn('t1', 'Question about a'));
    await first.setName(b.id, 'Bee');
    await first.archive(b.id);
    const before = [first.get(a.id), first.get(b.id)];
    await first.close();
    rmSync(join(home(), SNAPSHOT));
    const log = recordingLog();
    const second = await open(log);
    assert.deepEqual([second.get(a.id), second.get(b.id)], before);
    assert.deepEqual(ids(second, true), new Set([b.id]));
    assert.deepEqual(log.warnings, [], 'a missing index is no error');
    assert.ok(existsSync(join(home(), SNAPSHOT)), 'written again');
  });

  it('closes without writing a clean index it did not change, and writes one it changed', async () => {
    const first = await open();
    const a = await first.create(newThread());
    await first.close();
    const snapshot = join(home(), SNAPSHOT);
    const written = readFileSync(snapshot, 'utf8');
    utimesSync(snapshot, new Date(0), new Date(0)); // a rewrite would move it
    const idle = await open();
    await idle.close();
    assert.equal(statSync(snapshot).mtimeMs, 0, 'an unchanged index is not written at exit');
    assert.equal(readFileSync(snapshot, 'utf8'), written);
    const busy = await open();
    await busy.setName(a.id, 'Renamed');
    await busy.close();
    assert.notEqual(statSync(snapshot).mtimeMs, 0);
    const third = await open();
    assert.equal(third.get(a.id)?.name, 'Renamed', 'the change is in the snapshot');
    assert.ok(!existsSync(join(home(), JOURNAL)), 'folded into the snapshot at close');
  });

  it('rebuilds an unreadable index, and says so', async () => {
    const first = await open();
    const { id } = await first.create(newThread());
    await first.close();
    for (const broken of [
      '{"version":3,"columns":',
      '{"version":3,"clean":true,"folders":{},"values":{},"columns":{}}',
      '{"version":1}',
    ]) {
      writeFileSync(join(home(), SNAPSHOT), broken);
      const log = recordingLog();
      const store = await open(log);
      assert.deepEqual(ids(store), new Set([id]), broken);
      assert.ok(
        log.warnings.some((w) => w.includes('thread index unreadable')),
        broken,
      );
      await store.close();
    }
  });

  it('finds rollouts added behind its back, in a known folder or a new one, and forgets deleted ones', async () => {
    const first = await open();
    const kept = await first.create(newThread());
    const deleted = await first.create(newThread());
    await first.close();
    const sameDay = writeRollout(home(), { turns: [{ id: 't1', userText: 'copied in today' }] });
    const longAgo = writeRollout(home(), { createdAtMs: Date.parse('2024-02-29T12:00:00Z') });
    rmSync(join(home(), deleted.path));
    const second = await open();
    assert.deepEqual(ids(second), new Set([kept.id, sameDay.id, longAgo.id]));
    assert.equal(second.get(sameDay.id)?.preview, 'copied in today');
    assert.equal(second.get(deleted.id), undefined);
  });

  it('indexes a rollout another process creates in the folder it writes to', async () => {
    const store = await open();
    const foreign = writeRollout(home(), {});
    const own = await store.create(newThread());
    assert.deepEqual(ids(store), new Set([foreign.id, own.id]), 'seen when we wrote to the same folder');
  });

  it('lists a busy folder at most once a second, and still finds another process’s rollout there', async () => {
    const store = await open();
    const first = await store.create(newThread());
    const foreign = writeRollout(home(), {});
    const second = await store.create(newThread());
    const deadline = Date.now() + 3000;
    while (!ids(store).has(foreign.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(
      ids(store),
      new Set([first.id, second.id, foreign.id]),
      'listed at the end of the second',
    );
  });

  it('looks again at the next open for a rollout another process was still writing', async () => {
    const store = await open();
    const foreign = writeRollout(home(), { turns: [{ id: 't1', userText: 'slow writer' }] });
    const content = readFileSync(foreign.path);
    writeFileSync(foreign.path, '');
    await store.create(newThread());
    assert.equal(store.get(foreign.id), undefined, 'nothing to index yet');
    writeFileSync(foreign.path, content); // the folder's mtime stays: only the file changed
    await store.close();
    const reopened = await open();
    assert.equal(reopened.get(foreign.id)?.preview, 'slow writer');
  });

  it('warns about an old unreadable file once, not at every open', async () => {
    const garbage = writeRollout(home(), {});
    writeFileSync(garbage.path, 'garbage');
    const old = new Date(Date.now() - 120_000);
    utimesSync(garbage.path, old, old);
    const first = recordingLog();
    await (await open(first)).close();
    assert.ok(first.warnings.some((w) => w.includes('does not describe a thread')));
    const second = recordingLog();
    await open(second);
    assert.deepEqual(second.warnings, []);
  });

  it('after a crash, replays its journal and re-reads rollouts that grew behind its back', async () => {
    const crashed = await ThreadStore.open(home(), recordingLog());
    const { id, path } = await crashed.create(newThread());
    await crashed.setName(id, 'journaled');
    const quiet = await crashed.create(newThread());
    assert.ok(existsSync(join(home(), JOURNAL)));
    // Written after the index heard of the thread: the crash hit between rollout and journal.
    appendFileSync(
      join(home(), path),
      JSON.stringify({ type: 'name_set', ts: Date.now(), name: 'unjournaled' }) + '\n',
    );
    const second = await open();
    assert.ok(second.get(quiet.id), 'journaled creation replayed');
    await second.close(); // waits for the check of every rollout
    const third = await open();
    assert.equal(third.get(id)?.name, 'unjournaled');
  });

  it('checks the rollouts again at the next open when a close cut the check short', async () => {
    const made = Array.from({ length: 300 }, (_, i) =>
      writeRollout(home(), { createdAtMs: Date.now() - i * 1000 }),
    );
    await (await open()).close();
    const snapshot = JSON.parse(readFileSync(join(home(), SNAPSHOT), 'utf8')) as { clean: boolean };
    writeFileSync(join(home(), SNAPSHOT), JSON.stringify({ ...snapshot, clean: false }));
    const oldest = made[made.length - 1]!;
    appendFileSync(
      oldest.path,
      JSON.stringify({ type: 'name_set', ts: Date.now(), name: 'unannounced' }) + '\n',
    );
    await (await open()).close();
    const store = await open();
    for (let waited = 0; store.get(oldest.id)?.name !== 'unannounced'; waited += 10) {
      assert.ok(waited < 5000, 'the rename was never found');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  it('shares a home with another process without losing either one’s changes', async () => {
    const setup = await open();
    const old = await setup.create(newThread());
    await setup.close();
    const a = await open();
    const b = await open();
    await a.setName(old.id, 'named by a');
    const fromB = await b.create(newThread());
    const fromA = await a.create(newThread());
    await b.append(fromB.id, turn('t1', 'written by b'));
    await b.close();
    await a.close();
    const checking = await open();
    await checking.close();
    const after = await open();
    assert.deepEqual(ids(after), new Set([old.id, fromA.id, fromB.id]));
    assert.equal(after.get(old.id)?.name, 'named by a');
    assert.equal(after.get(fromB.id)?.preview, 'written by b');
  });

  it('skips an unreadable journal line', async () => {
    const crashed = await ThreadStore.open(home(), recordingLog());
    const { id } = await crashed.create(newThread());
    appendFileSync(join(home(), JOURNAL), '{"op":"put","thr\n');
    const log = recordingLog();
    const store = await open(log);
    assert.ok(store.get(id));
    assert.ok(log.warnings.some((w) => w.includes('journal')));
  });
});
