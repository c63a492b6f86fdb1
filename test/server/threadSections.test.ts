// Thread sections through the built server: threadSection/list|create|update|delete and
// thread/section/move, every response checked against the reference schema, kept across a restart
// and a rebuild of the thread index.
import { strict as assert } from 'node:assert';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Thread } from '../../server/protocol/thread';
import type { ThreadSection } from '../../server/protocol/threadSectionMethods';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';

type Listed = { data: Thread[]; nextCursor: string | null };

describe('app-server over stdio: thread sections', () => {
  const start = useServers();

  const create = async (server: ServerProcess, name: string, appearance?: unknown) =>
    (await server.call<{ section: ThreadSection }>('threadSection/create', { name, appearance })).section;
  const sectionsOf = async (server: ServerProcess) =>
    (await server.call<{ data: ThreadSection[]; nextCursor: string | null }>('threadSection/list', {})).data;
  const newThread = async (server: ServerProcess) =>
    (await server.call<{ thread: Thread }>('thread/start', {})).thread;
  const read = async (server: ServerProcess, threadId: string) =>
    (await server.call<{ thread: Thread }>('thread/read', { threadId })).thread;
  const listIds = async (server: ServerProcess, params: Record<string, unknown>) =>
    (await server.call<Listed>('thread/list', params)).data.map((t) => t.id);

  it('creates, lists (paged), renames and recolours sections, schema-checked', async () => {
    const server = await start();
    assert.deepEqual(await sectionsOf(server), []);
    const work = await create(server, '  Work  ', { color: 'blue' });
    assert.match(
      work.id,
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      'a UUIDv7',
    );
    assert.deepEqual(work, { id: work.id, name: 'Work', appearance: { color: 'blue', icon: null } });
    const home = await create(server, 'Home');
    assert.equal(home.appearance, null);

    const first = await server.call<{ data: ThreadSection[]; nextCursor: string | null }>(
      'threadSection/list',
      {
        limit: 1,
      },
    );
    assert.deepEqual(first.data, [work]);
    assert.ok(first.nextCursor);
    const second = await server.call<{ data: ThreadSection[]; nextCursor: string | null }>(
      'threadSection/list',
      {
        limit: 1,
        cursor: first.nextCursor,
      },
    );
    assert.deepEqual(second, { data: [home], nextCursor: null });

    // Omitted appearance keeps it; null clears it.
    const renamed = await server.call<{ section: ThreadSection }>('threadSection/update', {
      sectionId: work.id,
      name: 'Job',
    });
    assert.deepEqual(renamed.section, { ...work, name: 'Job' });
    const cleared = await server.call<{ section: ThreadSection }>('threadSection/update', {
      sectionId: work.id,
      name: 'Job',
      appearance: null,
    });
    assert.equal(cleared.section.appearance, null);
    assert.deepEqual(await sectionsOf(server), [cleared.section, home]);
    server.assertSchemaClean();
  });

  it('moves threads in, within and out of a section, announcing each move, shown on the thread', async () => {
    const server = await start();
    const section = await create(server, 'Inbox');
    const [a, b, c] = [await newThread(server), await newThread(server), await newThread(server)];
    const before = Math.floor(Date.now() / 1000);
    await server.call('thread/section/move', { threadId: a.id, sectionId: section.id });
    const changed = await server.notification('thread/section/changed', (p) => p.threadId === a.id);
    assert.deepEqual(changed.params, { threadId: a.id, sectionId: section.id });
    await server.call('thread/section/move', { threadId: b.id, sectionId: section.id, beforeThreadId: null });
    await server.call('thread/section/move', { threadId: c.id, sectionId: section.id, beforeThreadId: a.id });

    const shown = await read(server, a.id);
    assert.deepEqual(shown.section, section);
    assert.ok(shown.sectionEnteredAt! >= before && shown.sectionEnteredAt! <= Date.now() / 1000 + 1);
    assert.equal(shown.updatedAt, a.updatedAt, 'moving a thread is not activity on it');
    const listed = (await server.call<Listed>('thread/list', {})).data;
    assert.ok(listed.every((t) => t.section?.id === section.id));

    // The section's own order, first to last with asc, and paged.
    const ordered = await listIds(server, {
      sectionId: section.id,
      sortKey: 'section_position',
      sortDirection: 'asc',
    });
    assert.deepEqual(ordered, [c.id, a.id, b.id]);
    const page = await server.call<Listed>('thread/list', {
      sectionId: section.id,
      sortKey: 'section_position',
      sortDirection: 'asc',
      limit: 2,
    });
    assert.deepEqual(
      page.data.map((t) => t.id),
      [c.id, a.id],
    );
    const rest = await listIds(server, {
      sectionId: section.id,
      sortKey: 'section_position',
      sortDirection: 'asc',
      cursor: page.nextCursor,
    });
    assert.deepEqual(rest, [b.id]);
    assert.deepEqual(await listIds(server, { sectionId: section.id, sortKey: 'section_position' }), [
      b.id,
      a.id,
      c.id,
    ]);

    // Within its section: a new place, the same entry time. Out of it: no section at all.
    await server.call('thread/section/move', { threadId: b.id, sectionId: section.id, beforeThreadId: c.id });
    assert.deepEqual(
      await listIds(server, { sectionId: section.id, sortKey: 'section_position', sortDirection: 'asc' }),
      [b.id, c.id, a.id],
    );
    assert.equal((await read(server, a.id)).sectionEnteredAt, shown.sectionEnteredAt);
    await server.call('thread/section/move', { threadId: a.id, sectionId: null });
    const out = await server.notification(
      'thread/section/changed',
      (p) => p.threadId === a.id && p.sectionId === null,
    );
    assert.ok(out);
    const left = await read(server, a.id);
    assert.equal(left.section, null);
    assert.equal(left.sectionEnteredAt, null);
    assert.deepEqual(await listIds(server, { sectionId: null }), [a.id]);
    assert.deepEqual(new Set(await listIds(server, { sectionId: section.id })), new Set([b.id, c.id]));
    server.assertSchemaClean();
  });

  it('deleting a section keeps its threads, moved out of it and announced so', async () => {
    const server = await start();
    const section = await create(server, 'Doomed');
    const thread = await newThread(server);
    await server.call('thread/section/move', { threadId: thread.id, sectionId: section.id });
    assert.deepEqual(await server.call('threadSection/delete', { sectionId: section.id }), {});
    const released = await server.notification(
      'thread/section/changed',
      (p) => p.threadId === thread.id && p.sectionId === null,
    );
    assert.ok(released);
    assert.deepEqual(await sectionsOf(server), []);
    const kept = await read(server, thread.id);
    assert.equal(kept.section, null);
    assert.deepEqual(await listIds(server, {}), [thread.id]);
    server.assertSchemaClean();
  });

  it('answers bad params with -32602 and unknown sections or threads with a clear error', async () => {
    const server = await start();
    const section = await create(server, 'Real');
    const thread = await newThread(server);
    const invalid: Array<[string, unknown]> = [
      ['threadSection/create', {}],
      ['threadSection/create', { name: 42 }],
      ['threadSection/create', { name: '   ' }],
      ['threadSection/create', { name: 'two\nlines' }],
      ['threadSection/create', { name: 'x', appearance: { color: 3 } }],
      ['threadSection/update', { name: 'x' }],
      ['threadSection/update', { sectionId: section.id }],
      ['threadSection/delete', {}],
      ['threadSection/list', { limit: -1 }],
      ['threadSection/list', { cursor: 'no-such-section' }],
      ['thread/section/move', { threadId: thread.id }],
      ['thread/section/move', { sectionId: section.id }],
      ['thread/section/move', { threadId: thread.id, sectionId: null, beforeThreadId: thread.id }],
      ['thread/list', { sectionId: 'no-such-section' }],
      ['thread/list', { sortKey: 'section_position' }],
    ];
    for (const [method, params] of invalid) {
      const answer = await server.request(method, params);
      assert.equal(
        answer.error?.code,
        -32602,
        `${method} ${JSON.stringify(params)}: ${JSON.stringify(answer)}`,
      );
    }
    const unknown = 'unknown-section-id';
    for (const [method, params] of [
      ['threadSection/update', { sectionId: unknown, name: 'x' }],
      ['threadSection/delete', { sectionId: unknown }],
      ['thread/section/move', { threadId: thread.id, sectionId: unknown }],
    ] as const) {
      const answer = await server.request(method, params);
      assert.equal(answer.error?.code, -32600, method);
      assert.match(answer.error!.message, /thread section not found: "unknown-section-id"/);
    }
    const noThread = await server.request('thread/section/move', {
      threadId: '00000000-0000-7000-8000-000000000000',
      sectionId: section.id,
    });
    assert.match(noThread.error!.message, /thread not found/);
    const notMember = await server.request('thread/section/move', {
      threadId: thread.id,
      sectionId: section.id,
      beforeThreadId: '00000000-0000-7000-8000-000000000000',
    });
    assert.equal(notMember.error?.code, -32600);
    assert.match(notMember.error!.message, /is not in section/);
    assert.equal((await read(server, thread.id)).section, null, 'a refused move changes nothing');
    server.assertSchemaClean();
  });

  it('keeps sections and placements across a restart and a rebuild of the thread index', async () => {
    const home = tempDir();
    let server = await start(home);
    const section = await create(server, 'Kept', { icon: 'folder' });
    const thread = await newThread(server);
    await server.call('thread/section/move', { threadId: thread.id, sectionId: section.id });
    const entered = (await read(server, thread.id)).sectionEnteredAt;
    await server.stop();

    server = await start(home);
    // Read first: a thread's view shows its section before any section method was called.
    assert.deepEqual((await read(server, thread.id)).section, section);
    assert.deepEqual(await sectionsOf(server), [section]);
    await server.stop();

    // The index is a cache of the rollouts: without it, the thread is found again, still in its section.
    for (const file of ['thread-index.json', 'thread-index.journal'])
      rmSync(join(home, file), { force: true });
    assert.equal(existsSync(join(home, 'thread-index.json')), false);
    server = await start(home);
    const listed = (await server.call<Listed>('thread/list', { sectionId: section.id })).data;
    assert.deepEqual(
      listed.map((t) => [t.id, t.section, t.sectionEnteredAt]),
      [[thread.id, section, entered]],
    );
    server.assertSchemaClean();
  });

  it('forgets a deleted thread in its section', async () => {
    const server = await start();
    const section = await create(server, 'S');
    const [gone, stays] = [await newThread(server), await newThread(server)];
    for (const t of [gone, stays])
      await server.call('thread/section/move', { threadId: t.id, sectionId: section.id });
    await server.call('thread/delete', { threadId: gone.id });
    assert.deepEqual(
      await listIds(server, { sectionId: section.id, sortKey: 'section_position', sortDirection: 'asc' }),
      [stays.id],
    );
    // Its id is no longer a place in the section.
    const answer = await server.request('thread/section/move', {
      threadId: stays.id,
      sectionId: section.id,
      beforeThreadId: gone.id,
    });
    assert.equal(answer.error?.code, -32600);
    server.assertSchemaClean();
  });
});
