// Thread attachments through the built server: thread/attachment/add|list|remove and
// thread/attachmentOwner/list, every response checked against the reference schema, kept across a
// restart; oversized or hostile input and planted symbolic links refused.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Thread } from '../../server/protocol/thread';
import type { ThreadAttachment } from '../../server/protocol/threadAttachmentMethods';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';

type Added = { outcome: 'created' | 'existing'; attachment: ThreadAttachment };
type Page<T> = { data: T[]; nextCursor: string | null };
type Owner = { threadId: string; archived: boolean };

describe('app-server over stdio: thread attachments', () => {
  const start = useServers();

  const newThread = async (server: ServerProcess, params: Record<string, unknown> = {}) =>
    (await server.call<{ thread: Thread }>('thread/start', params)).thread;
  const add = (server: ServerProcess, threadId: string, identityKey: string, payload: unknown = {}) =>
    server.call<Added>('thread/attachment/add', {
      threadId,
      attachmentType: 'worktree',
      identityKey,
      payload,
    });
  const list = (server: ServerProcess, threadId: string, more: Record<string, unknown> = {}) =>
    server.call<Page<ThreadAttachment>>('thread/attachment/list', { threadId, ...more });
  const owners = (server: ServerProcess, identityKey: string, more: Record<string, unknown> = {}) =>
    server.call<Page<Owner>>('thread/attachmentOwner/list', {
      attachmentType: 'worktree',
      identityKey,
      ...more,
    });

  it('adds (once per identity), lists paged, announces and removes attachments', async () => {
    const server = await start();
    const thread = await newThread(server);
    const payload = { path: '/tmp/wt', nested: [1, 'two', null] };
    const first = await add(server, thread.id, 'wt-1', payload);
    assert.equal(first.outcome, 'created');
    assert.deepEqual(
      { ...first.attachment, id: 'x', createdAt: 0 },
      { id: 'x', attachmentType: 'worktree', identityKey: 'wt-1', payload, createdAt: 0 },
    );
    assert.ok(Math.abs(first.attachment.createdAt - Date.now() / 1000) < 60, 'createdAt in Unix seconds');
    const created = await server.notification(
      'thread/attachment/updated',
      (p) => p.attachmentId === first.attachment.id,
    );
    assert.deepEqual(created.params, {
      threadId: thread.id,
      attachmentType: 'worktree',
      identityKey: 'wt-1',
      attachmentId: first.attachment.id,
      operation: 'created',
    });

    // The same identity again: the stored one, unchanged, whatever payload came with it.
    const again = await add(server, thread.id, 'wt-1', { other: true });
    assert.deepEqual(again, { outcome: 'existing', attachment: first.attachment });
    const second = (await add(server, thread.id, 'wt-2')).attachment;
    const third = (await add(server, thread.id, 'wt-3')).attachment;

    const page1 = await list(server, thread.id, { limit: 2 });
    assert.deepEqual(page1.data, [first.attachment, second]);
    assert.ok(page1.nextCursor);
    assert.deepEqual(await list(server, thread.id, { cursor: page1.nextCursor }), {
      data: [third],
      nextCursor: null,
    });

    assert.deepEqual(
      await server.call('thread/attachment/remove', {
        threadId: thread.id,
        attachmentType: 'worktree',
        identityKey: 'wt-2',
      }),
      {},
    );
    const deleted = await server.notification(
      'thread/attachment/updated',
      (p) => p.attachmentId === second.id && p.operation === 'deleted',
    );
    assert.ok(deleted);
    assert.deepEqual((await list(server, thread.id)).data, [first.attachment, third]);
    const again2 = await server.request('thread/attachment/remove', {
      threadId: thread.id,
      attachmentType: 'worktree',
      identityKey: 'wt-2',
    });
    assert.equal(again2.error?.code, -32600);
    assert.match(again2.error!.message, /has no "worktree" attachment "wt-2"/);
    // Adding one is not activity on the thread.
    const read = await server.call<{ thread: Thread }>('thread/read', { threadId: thread.id });
    assert.equal(read.thread.updatedAt, thread.updatedAt);
    server.assertSchemaClean();
  });

  it('finds the owners of an identity, filtered by archived, paged', async () => {
    const server = await start();
    const [a, b, c] = [await newThread(server), await newThread(server), await newThread(server)];
    for (const t of [a, b]) await add(server, t.id, 'shared');
    await add(server, c.id, 'other');
    await server.call('thread/archive', { threadId: b.id });

    const all = await owners(server, 'shared');
    assert.deepEqual(
      all.data.sort((x, y) => x.threadId.localeCompare(y.threadId)),
      [
        { threadId: a.id, archived: false },
        { threadId: b.id, archived: true },
      ].sort((x, y) => x.threadId.localeCompare(y.threadId)),
    );
    assert.equal(all.nextCursor, null);
    assert.deepEqual((await owners(server, 'shared', { archived: false })).data, [
      { threadId: a.id, archived: false },
    ]);
    assert.deepEqual((await owners(server, 'shared', { archived: true })).data, [
      { threadId: b.id, archived: true },
    ]);
    const first = await owners(server, 'shared', { limit: 1 });
    assert.equal(first.data.length, 1);
    const rest = await owners(server, 'shared', { limit: 1, cursor: first.nextCursor });
    assert.equal(rest.nextCursor, null);
    assert.equal(new Set([...first.data, ...rest.data].map((o) => o.threadId)).size, 2);
    assert.deepEqual(await owners(server, 'nobody'), { data: [], nextCursor: null });

    // A deleted thread owns nothing any more.
    await server.call('thread/delete', { threadId: a.id });
    assert.deepEqual((await owners(server, 'shared')).data, [{ threadId: b.id, archived: true }]);
    assert.equal(existsSync(join(server.home, 'thread-attachments', `${a.id}.json`)), false);
    server.assertSchemaClean();
  });

  it('keeps attachments across a restart', async () => {
    const home = tempDir();
    let server = await start(home);
    const thread = await newThread(server);
    const kept = (await add(server, thread.id, 'kept', { n: 1 })).attachment;
    await server.stop();
    server = await start(home);
    assert.deepEqual(await list(server, thread.id), { data: [kept], nextCursor: null });
    assert.deepEqual((await owners(server, 'kept')).data, [{ threadId: thread.id, archived: false }]);
    server.assertSchemaClean();
  });

  it('answers bad params with -32602 and unknown or ephemeral threads with a clear error', async () => {
    const server = await start();
    const thread = await newThread(server);
    const base = { threadId: thread.id, attachmentType: 'worktree', identityKey: 'k' };
    const invalid: Array<[string, unknown]> = [
      ['thread/attachment/add', { threadId: thread.id, attachmentType: 'worktree', identityKey: 'k' }],
      ['thread/attachment/add', { ...base, payload: {}, identityKey: 7 }],
      ['thread/attachment/add', { ...base, payload: {}, identityKey: '' }],
      ['thread/attachment/add', { ...base, payload: {}, attachmentType: 'x'.repeat(513) }],
      ['thread/attachment/add', { ...base, payload: 'x'.repeat(70 * 1024) }],
      ['thread/attachment/list', {}],
      ['thread/attachment/list', { threadId: thread.id, limit: -1 }],
      ['thread/attachment/list', { threadId: thread.id, cursor: 'not-a-cursor' }],
      ['thread/attachment/remove', { threadId: thread.id, attachmentType: 'worktree' }],
      ['thread/attachmentOwner/list', { attachmentType: 'worktree' }],
      ['thread/attachmentOwner/list', { attachmentType: 'worktree', identityKey: 'k', archived: 'yes' }],
      ['thread/attachmentOwner/list', { attachmentType: 'worktree', identityKey: 'k', cursor: 'nope' }],
    ];
    for (const [method, params] of invalid) {
      const answer = await server.request(method, params);
      assert.equal(answer.error?.code, -32602, `${method} ${JSON.stringify(params).slice(0, 200)}`);
    }
    const oversized = await server.request('thread/attachment/add', {
      ...base,
      payload: 'x'.repeat(70 * 1024),
    });
    assert.match(oversized.error!.message, /payload: \d+ bytes of JSON, more than the 65536/);
    assert.deepEqual((await list(server, thread.id)).data, [], 'nothing refused was stored');

    const unknown = await server.request('thread/attachment/add', {
      ...base,
      threadId: '00000000-0000-7000-8000-000000000000',
      payload: {},
    });
    assert.equal(unknown.error?.code, -32600);
    assert.match(unknown.error!.message, /thread not found/);
    // A thread id that is a path never names a file.
    const traversal = await server.request('thread/attachment/add', {
      ...base,
      threadId: '../../outside',
      payload: {},
    });
    assert.equal(traversal.error?.code, -32600);
    assert.equal(existsSync(join(server.home, 'outside.json')), false);

    const ephemeral = await newThread(server, { ephemeral: true });
    const refused = await server.request('thread/attachment/add', {
      ...base,
      threadId: ephemeral.id,
      payload: {},
    });
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error!.message, /ephemeral/);
    server.assertSchemaClean();
  });

  it('refuses more than 100 attachments on a thread', async () => {
    const server = await start();
    const thread = await newThread(server);
    for (let i = 0; i < 100; i++) await add(server, thread.id, `k${i}`);
    const answer = await server.request('thread/attachment/add', {
      threadId: thread.id,
      attachmentType: 'worktree',
      identityKey: 'one-too-many',
      payload: {},
    });
    assert.equal(answer.error?.code, -32600);
    assert.match(answer.error!.message, /already has 100 attachments/);
    server.assertSchemaClean();
  });

  it('answers a torn attachments file with a clear error and never writes over it', async () => {
    const server = await start();
    const thread = await newThread(server);
    mkdirSync(join(server.home, 'thread-attachments'));
    const file = join(server.home, 'thread-attachments', `${thread.id}.json`);
    writeFileSync(file, '{"version":1,"attachm');
    for (const [method, params] of [
      ['thread/attachment/list', { threadId: thread.id }],
      [
        'thread/attachment/add',
        { threadId: thread.id, attachmentType: 'worktree', identityKey: 'k', payload: {} },
      ],
    ] as const) {
      const answer = await server.request(method, params);
      assert.equal(answer.error?.code, -32600, method);
      assert.match(answer.error!.message, /is not a thread attachments file/);
    }
    assert.equal(readFileSync(file, 'utf8'), '{"version":1,"attachm');
    server.assertSchemaClean();
  });

  it('neither reads nor writes through a symbolic link planted in the home', async () => {
    const home = tempDir();
    const outside = tempDir();
    let server = await start(home);
    const thread = await newThread(server);
    await server.stop();

    // The thread's file is a link to a file elsewhere that looks like ours.
    const foreign = join(outside, 'foreign.json');
    const forged = {
      version: 1,
      attachments: [
        { id: 'f', attachmentType: 'worktree', identityKey: 'stolen', payload: {}, createdAt: 1 },
      ],
    };
    writeFileSync(foreign, JSON.stringify(forged));
    mkdirSync(join(home, 'thread-attachments'));
    symlinkSync(foreign, join(home, 'thread-attachments', `${thread.id}.json`));
    server = await start(home);
    const listed = await server.request('thread/attachment/list', { threadId: thread.id });
    assert.equal(listed.error?.code, -32600);
    assert.match(listed.error!.message, /not a regular file \(a symbolic link is not followed\)/);
    const added = await server.request('thread/attachment/add', {
      threadId: thread.id,
      attachmentType: 'worktree',
      identityKey: 'k',
      payload: {},
    });
    assert.equal(added.error?.code, -32600);
    assert.equal(readFileSync(foreign, 'utf8'), JSON.stringify(forged), 'the linked file is untouched');
    assert.deepEqual((await owners(server, 'stolen')).data, [], 'a linked file owns nothing');
    await server.stop();

    // The folder itself is a link out of the home.
    const home2 = tempDir();
    server = await start(home2);
    const other = await newThread(server);
    symlinkSync(outside, join(home2, 'thread-attachments'));
    const refused = await server.request('thread/attachment/add', {
      threadId: other.id,
      attachmentType: 'worktree',
      identityKey: 'k',
      payload: {},
    });
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error!.message, /is not a folder/);
    assert.equal(
      existsSync(join(outside, `${other.id}.json`)),
      false,
      'nothing written where the link points',
    );
    server.assertSchemaClean();
  });
});
