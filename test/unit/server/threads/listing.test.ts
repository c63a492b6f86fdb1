import { strict as assert } from 'node:assert';
import type { ThreadSortKey } from '../../../../server/protocol/enums';
import { InvalidCursorError } from '../../../../server/threads/listing';
import type { ThreadSummary } from '../../../../server/threads/summary';
import type { ThreadStore } from '../../../../server/threads/threadStore';
import { writeRollout } from '../../../support/rollouts';
import { newThread, turn, useHome } from './fixtures';

/** Newest first by the key, ties broken by id: the order the store promises. */
const expectedOrder = (threads: ThreadSummary[], sortKey: ThreadSortKey) =>
  [...threads]
    .sort((a, b) => {
      const key = sortKey === 'created_at' ? 'createdAt' : 'updatedAt';
      return b[key] - a[key] || (a.id < b.id ? 1 : -1);
    })
    .map((t) => t.id);

function everyThread(store: ThreadStore, archived = false): ThreadSummary[] {
  const all: ThreadSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = store.list({ limit: 200, cursor, archived });
    all.push(...page.data);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}

describe('ThreadStore.list: paging, sorting and filters', () => {
  const { home, open } = useHome();

  describe('over 1,000 threads', () => {
    let store: ThreadStore;
    let stored: ThreadSummary[];

    beforeEach(async () => {
      // Four threads a second, so many share a createdAt and the id must break the tie.
      const base = Date.now() - 2_000_000;
      for (let i = 0; i < 1000; i++) {
        writeRollout(home(), {
          createdAtMs: base + i * 250,
          turns: i % 3 ? [{ id: 't1', userText: `thread ${i}` }] : [],
        });
      }
      store = await open();
      stored = everyThread(store);
      assert.equal(stored.length, 1000);
    });

    for (const sortKey of ['created_at', 'updated_at'] as const) {
      for (const sortDirection of ['desc', 'asc'] as const) {
        it(`pages ${sortKey} ${sortDirection} with no duplicates or gaps while threads are created between pages`, async () => {
          const seen: string[] = [];
          const created: string[] = [];
          let cursor: string | undefined;
          let pages = 0;
          do {
            const page = store.list({ limit: 37, cursor, sortKey, sortDirection });
            assert.ok(page.data.length <= 37);
            seen.push(...page.data.map((t) => t.id));
            cursor = page.nextCursor ?? undefined;
            created.push((await store.create(newThread())).id);
            if (pages++ % 5 === 0) await store.append(stored[pages]!.id, turn('t9', 'bumped'));
          } while (cursor);
          assert.equal(new Set(seen).size, seen.length, 'no duplicates');
          const expected = expectedOrder(stored, sortKey);
          if (sortDirection === 'asc') expected.reverse();
          const original = seen.filter((id) => !created.includes(id));
          if (sortKey === 'created_at') {
            assert.deepEqual(original, expected, 'every stored thread, in order');
            // Newer threads sort before a descending cursor and after an ascending one.
            if (sortDirection === 'desc') assert.equal(original.length, seen.length);
            else assert.ok(seen.length > original.length);
          } else {
            // Threads bumped while paging may move past the cursor; every other one is seen once.
            const bumped = new Set(Array.from({ length: pages }, (_, i) => stored[i + 1]!.id));
            assert.deepEqual(
              original.filter((id) => !bumped.has(id)),
              expected.filter((id) => !bumped.has(id)),
            );
          }
        });
      }
    }

    it('clamps the page size: 25 by default, at most 200, at least 1', () => {
      assert.equal(store.list().data.length, 25);
      assert.equal(store.list({ limit: 10_000 }).data.length, 200);
      assert.equal(store.list({ limit: 0 }).data.length, 25);
      assert.equal(store.list({ limit: -3 }).data.length, 1);
    });

    it('ends with a null cursor on the page that holds the last row, never an empty page', () => {
      const sizes: number[] = [];
      let cursor: string | undefined;
      do {
        const page = store.list({ limit: 200, cursor });
        sizes.push(page.data.length);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      assert.deepEqual(sizes, [200, 200, 200, 200, 200]);
    });
  });

  it('sorts by updated_at, the most recently changed first', async () => {
    const store = await open();
    const a = await store.create(newThread());
    const b = await store.create(newThread());
    await store.append(a.id, turn('t1', 'later', Date.now() + 5000));
    assert.deepEqual(
      store.list({ sortKey: 'updated_at' }).data.map((t) => t.id),
      [a.id, b.id],
    );
    assert.deepEqual(
      store.list({ sortKey: 'created_at' }).data.map((t) => t.id),
      [b.id, a.id],
    );
    assert.deepEqual(
      store.list({ sortKey: 'updated_at', sortDirection: 'asc' }).data.map((t) => t.id),
      [b.id, a.id],
    );
  });

  it('filters by provider, source kind, archived and cwd, combined with AND', async () => {
    const store = await open();
    const made = {
      openaiHere: await store.create(newThread({ cwd: '/work/here' })),
      ollamaHere: await store.create(newThread({ cwd: '/work/here', modelProvider: 'ollama' })),
      cliThere: await store.create(newThread({ cwd: '/work/there', source: 'cli' })),
      appServer: await store.create(newThread({ cwd: '/work/there', source: 'appServer' })),
      custom: await store.create(newThread({ cwd: '/work/else', source: { custom: 'bot' } })),
      archived: await store.create(newThread({ cwd: '/work/here' })),
    };
    await store.archive(made.archived.id);
    const ids = (query: Parameters<ThreadStore['list']>[0]) =>
      new Set(store.list(query).data.map((t) => Object.entries(made).find(([, s]) => s.id === t.id)![0]));
    assert.deepEqual(ids({}), new Set(['openaiHere', 'ollamaHere', 'cliThere', 'appServer', 'custom']));
    assert.deepEqual(ids({ modelProviders: ['ollama'] }), new Set(['ollamaHere']));
    assert.deepEqual(ids({ modelProviders: [] }), ids({}), 'empty means every provider');
    assert.deepEqual(ids({ modelProviders: ['nobody'] }), new Set());
    assert.deepEqual(
      ids({ sourceKinds: ['cli', 'vscode'] }),
      new Set(['openaiHere', 'ollamaHere', 'cliThere']),
    );
    assert.deepEqual(ids({ sourceKinds: ['unknown'] }), new Set(['custom']));
    assert.deepEqual(ids({ cwd: ['/work/there'] }), new Set(['cliThere', 'appServer']));
    assert.deepEqual(
      ids({ cwd: ['/work/there', '/work/else'] }),
      new Set(['cliThere', 'appServer', 'custom']),
    );
    assert.deepEqual(ids({ cwd: ['/work'] }), new Set(), 'exact match, not a prefix');
    assert.deepEqual(ids({ archived: true }), new Set(['archived']));
    assert.deepEqual(ids({ archived: true, cwd: ['/work/there'] }), new Set());
    assert.deepEqual(
      ids({ cwd: ['/work/here'], modelProviders: ['openai'], sourceKinds: ['vscode'] }),
      new Set(['openaiHere']),
    );
  });

  it('searches names and previews, ignoring case', async () => {
    const store = await open();
    const byPreview = await store.create(newThread());
    await store.append(byPreview.id, turn('t1', 'Refactor the PARSER module'));
    const byName = await store.create(newThread());
    await store.setName(byName.id, 'Parser bugs');
    const neither = await store.create(newThread());
    await store.append(neither.id, turn('t1', 'Something else'));
    const found = (searchTerm: string) => new Set(store.list({ searchTerm }).data.map((t) => t.id));
    assert.deepEqual(found('parser'), new Set([byPreview.id, byName.id]));
    assert.deepEqual(found('BUGS'), new Set([byName.id]));
    assert.deepEqual(found('  module '), new Set([byPreview.id]), 'trimmed');
    assert.deepEqual(found('nothing like it'), new Set());
    assert.equal(found('').size, 3, 'an empty term matches everything');
  });

  it('pages through filtered results, skipping rows that do not match', async () => {
    const store = await open();
    const wanted: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { id } = await store.create(newThread({ cwd: i % 3 ? '/work/other' : '/work/wanted' }));
      if (i % 3 === 0) wanted.unshift(id);
    }
    const first = store.list({ cwd: ['/work/wanted'], limit: 4 });
    const second = store.list({ cwd: ['/work/wanted'], limit: 4, cursor: first.nextCursor! });
    const third = store.list({ cwd: ['/work/wanted'], limit: 4, cursor: second.nextCursor! });
    assert.deepEqual(
      [...first.data, ...second.data, ...third.data].map((t) => t.id),
      wanted,
    );
    assert.equal(third.nextCursor, null);
  });

  it('rejects a cursor it did not issue, or one issued for the other sort key', async () => {
    const store = await open();
    for (let i = 0; i < 3; i++) await store.create(newThread());
    const cursor = store.list({ limit: 1 }).nextCursor!;
    assert.equal(store.list({ limit: 1, cursor }).data.length, 1);
    for (const bad of ['nope', '', Buffer.from('[1,2,3]').toString('base64url'), cursor.slice(0, -3)]) {
      assert.throws(() => store.list({ cursor: bad }), InvalidCursorError, bad);
    }
    assert.throws(
      () => store.list({ cursor, sortKey: 'updated_at' }),
      (e: Error) => e instanceof InvalidCursorError && /sortKey/.test(e.message),
    );
  });
});
