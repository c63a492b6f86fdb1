import { strict as assert } from 'node:assert';
import { ServerProcess } from '../support/serverProcess';
import { serverPlatform, unlessWine } from '../support/underWine';

describe('app-server over stdio: handshake and errors', () => {
  let server: ServerProcess;

  beforeEach(() => {
    server = ServerProcess.start({ env: { THREADLINE_MAX_MESSAGE_BYTES: '65536' } });
  });

  afterEach(async () => {
    const alive = server.alive;
    await server.stop();
    assert.ok(alive, `the server exited early; stderr:\n${server.stderr}`);
  });

  it('rejects requests before initialize, answers initialize once, then rejects a second one', async () => {
    const early = await server.request('thread/list', {});
    assert.deepEqual(early.error, { code: -32600, message: 'Not initialized' });
    const init = await server.call<Record<string, string>>('initialize', {
      clientInfo: { name: 'tests', title: null, version: '1.0.0' },
    });
    assert.equal(init.codexHome, server.home);
    const platform = serverPlatform();
    assert.equal(init.platformFamily, platform === 'win32' ? 'windows' : 'unix');
    const os: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macos', win32: 'windows' };
    assert.equal(init.platformOs, os[platform] ?? platform);
    assert.match(init.userAgent!, /^threadline\/\d+\.\d+\.\d+ .* tests\/1\.0\.0$/);
    const again = await server.request('initialize', { clientInfo: { name: 'tests', version: '1' } });
    assert.deepEqual(again.error, { code: -32600, message: 'Already initialized' });
  });

  it('answers an unparseable line with -32700 and id null, and keeps the connection', async () => {
    await server.initialize();
    server.sendRaw('{"id": 1, "method": "thread/list", ');
    const parseError = await server.next((m) => m.id === null);
    assert.equal(parseError.error?.code, -32700);
    assert.match(parseError.error!.message, /^Parse error/);
    assert.deepEqual((await server.call('thread/list')).data, []);
  });

  it('answers messages that are not requests with -32600, keeping the id when it has one', async () => {
    await server.initialize();
    server.sendRaw('[{"id":1,"method":"thread/list"}]');
    server.sendRaw('{"id":"s1","method":42}');
    server.sendRaw('{"id":"s2"}');
    const batch = await server.next((m) => m.id === null && m.error?.code === -32600);
    assert.match(batch.error!.message, /batch/);
    assert.equal((await server.next((m) => m.id === 's1')).error?.code, -32600);
    assert.equal((await server.next((m) => m.id === 's2')).error?.code, -32600);
  });

  it('answers an unknown method with -32601 naming it', async () => {
    await server.initialize();
    assert.deepEqual((await server.request('thread/teleport', {})).error, {
      code: -32601,
      message: 'Method not found: thread/teleport',
    });
  });

  it('answers invalid params with -32602 naming the field and what was expected', async () => {
    await server.initialize();
    const wrongType = await server.request('thread/read', { threadId: 7 });
    assert.equal(wrongType.error?.code, -32602);
    assert.match(wrongType.error!.message, /threadId: expected .*string.* \(got number 7\)/);
    const missing = await server.request('thread/archive', {});
    assert.match(missing.error!.message, /threadId: .*\(missing\)/);
    const badEnum = await server.request('thread/list', { sortKey: 'size' });
    assert.match(badEnum.error!.message, /sortKey: expected "created_at" or "updated_at"/);
  });

  it('accepts omitted and null params for methods whose params are all optional', async () => {
    await server.initialize();
    server.send({ id: 'no-params', method: 'thread/list' });
    server.send({ id: 'null-params', method: 'thread/list', params: null });
    assert.ok((await server.next((m) => m.id === 'no-params')).result);
    assert.ok((await server.next((m) => m.id === 'null-params')).result);
  });

  it('gates experimental fields behind the experimentalApi capability', async () => {
    await server.initialize({ experimentalApi: false });
    const gated = await server.request('thread/start', { dynamicTools: [] });
    assert.deepEqual(gated.error, {
      code: -32600,
      message: 'thread/start.dynamicTools requires experimentalApi capability',
    });
    assert.ok(
      (await server.request('thread/start', { dynamicTools: null })).result,
      'null is the same as absent',
    );
  });

  it('lets an experimental client use experimental fields', async () => {
    await server.initialize({ experimentalApi: true });
    assert.ok((await server.request('thread/start', { persistExtendedHistory: true })).result);
  });

  it('rejects a request id that is still in flight, and answers each request exactly once', async () => {
    await server.initialize();
    server.send({ id: 'dup', method: 'thread/list', params: {} });
    server.send({ id: 'dup', method: 'thread/list', params: {} });
    await server.next((m) => m.id === 'dup' && m.result !== undefined);
    await server.next((m) => m.id === 'dup' && m.error !== undefined);
    await server.call('thread/loaded/list');
    assert.equal(server.received.filter((m) => m.id === 'dup').length, 2);
  });

  it('answers a line over the size limit with a clear error and keeps reading', async function () {
    unlessWine(
      this,
      'a line limit of stdio; over WebSocket an oversized message closes the connection (1009)',
    );
    await server.initialize();
    server.send({ id: 'huge', method: 'thread/list', params: { searchTerm: 'x'.repeat(100_000) } });
    const tooBig = await server.next((m) => m.id === null && m.error?.code === -32600);
    assert.match(tooBig.error!.message, /exceeds the limit of 65536 bytes/);
    assert.ok(await server.call('thread/list', { searchTerm: 'fits' }));
  });

  it('ignores responses to requests it never sent and unknown notifications', async () => {
    await server.initialize();
    server.send({ id: 999, result: { whatever: true } });
    server.send({ id: 998, error: { code: 1, message: 'no' } });
    server.send({ method: 'something/else', params: {} });
    server.sendRaw(
      [
        '{"method":"$/cancelRequest","params":{}}',
        '{"id":"after-cancel","method":"thread/loaded/list"}',
      ].join('\n'),
    );
    assert.ok(
      (await server.next((m) => m.id === 'after-cancel')).result,
      'the line after a bad $/ message is answered',
    );
    assert.ok(await server.call('thread/loaded/list'));
  });

  it('accepts "jsonrpc": "2.0" on input and never sends it', async () => {
    server.send({
      jsonrpc: '2.0',
      id: 'j',
      method: 'initialize',
      params: { clientInfo: { name: 'j', version: '1' } },
    });
    await server.next((m) => m.id === 'j');
    assert.ok(server.received.every((m) => !('jsonrpc' in m)));
  });

  it('accepts both spellings of policies and answers with the schema spelling', async () => {
    await server.initialize();
    const camel = await server.call<Record<string, unknown>>('thread/start', {
      approvalPolicy: 'unlessTrusted',
      sandbox: 'workspaceWrite',
      cwd: server.home,
    });
    assert.equal(camel.approvalPolicy, 'untrusted');
    assert.equal((camel.sandbox as { type: string }).type, 'workspaceWrite');
    const kebab = await server.call<Record<string, unknown>>('thread/start', {
      approvalPolicy: 'on-request',
      sandbox: 'read-only',
    });
    assert.equal(kebab.approvalPolicy, 'on-request');
    assert.deepEqual(kebab.sandbox, { type: 'readOnly', networkAccess: false });
    const onFailure = await server.call<Record<string, unknown>>('thread/start', {
      approvalPolicy: 'onFailure',
    });
    assert.equal(onFailure.approvalPolicy, 'on-request');
  });

  it('drops notifications the client opted out of', async () => {
    await server.initialize({ optOut: ['thread/started', 'no/such/method'] });
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {});
    await server.call('thread/name/set', { threadId: thread.id, name: 'renamed' });
    await server.notification('thread/name/updated');
    assert.equal(server.notifications('thread/started').length, 0);
  });
});
