// API-key accounts over stdio: login stores the key for the default provider in a 0600 auth.json,
// turns use it, logout removes it; ChatGPT sign-in is refused clearly; keys never reach the log.
import { strict as assert } from 'node:assert';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentHome, runTurn, startThread } from '../support/agent';
import { useServers } from '../support/serverProcess';
import { serverHasFileModes } from '../support/underWine';

describe('accounts', () => {
  const model = useModelServer();
  const start = useServers();
  const serve = (home: string, env = { SCRIPTED_API_KEY: '' }) => start(home, 'threadline_vscode', env);

  it('stores an API key, uses it for turns, and forgets it on logout', async () => {
    const home = agentHome('responses', model.baseUrl);
    const server = await serve(home);
    assert.deepEqual(await server.call('account/read', {}), { account: null, requiresOpenaiAuth: true });

    const threadId = await startThread(server);
    const refused = await runTurn(server, threadId, 'Hi');
    assert.equal(refused.status, 'failed');
    // Its own class: no key at all is not a key the provider refused.
    assert.equal(refused.error?.codexErrorInfo, 'apiKeyMissing');
    assert.match(
      refused.error!.message,
      /^No API key for Scripted, so nothing was sent: set SCRIPTED_API_KEY/,
    );
    assert.doesNotMatch(refused.error!.message, /reject|invalid/i);
    assert.equal(model.requests.length, 0, 'nothing was sent without a key');

    const key = 'sk-stored-key-abcdef-123456';
    assert.deepEqual(await server.call('account/login/start', { type: 'apiKey', apiKey: key }), {
      type: 'apiKey',
    });
    await server.notification('account/login/completed', (p) => p.success === true);
    await server.notification('account/updated', (p) => p.authMode === 'apikey');
    const file = join(home, 'auth.json');
    if (serverHasFileModes()) assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { providers: { scripted: { apiKey: key } } });
    assert.deepEqual(await server.call('account/read', {}), {
      account: { type: 'apiKey' },
      requiresOpenaiAuth: true,
    });

    model.script({ output: [{ text: 'hello' }] });
    const done = await runTurn(server, threadId, 'Hi again');
    assert.equal(done.status, 'completed');
    assert.ok(JSON.stringify(model.requests[0]!.headers).includes(key));

    await server.call('account/logout');
    await server.notification('account/updated', (p) => p.authMode === null);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { providers: {} });
    assert.ok(!server.stderr.includes(key), 'the key never reaches the log');
    const rollout = readFileSync(
      (await server.call<{ thread: { path: string } }>('thread/read', { threadId })).thread.path,
      'utf8',
    );
    assert.ok(!rollout.includes(key), 'nor the thread history');
  });

  it("reports a key from the provider's env_key variable, and keeps using it after logout", async () => {
    const server = await serve(agentHome('responses', model.baseUrl), {
      SCRIPTED_API_KEY: 'sk-env-key-0987654321',
    });
    assert.deepEqual(await server.call('account/read', { refreshToken: false }), {
      account: { type: 'apiKey' },
      requiresOpenaiAuth: true,
    });
    assert.deepEqual(await server.call('account/logout'), {});
    await server.notification('account/updated', (p) => p.authMode === null);
    assert.match(server.stderr, /SCRIPTED_API_KEY is still set/);
    assert.ok(!server.stderr.includes('sk-env-key-0987654321'));
  });

  it('reads the account of a named provider, so a client can check before sending', async () => {
    const server = await serve(agentHome('responses', model.baseUrl));
    assert.deepEqual(await server.call('account/read', { modelProvider: 'scripted' }), {
      account: null,
      requiresOpenaiAuth: true,
    });
    // Ollama on this machine takes no key.
    assert.deepEqual(await server.call('account/read', { modelProvider: 'ollama' }), {
      account: null,
      requiresOpenaiAuth: false,
    });
    const unknown = await server.request('account/read', { modelProvider: 'nope' });
    assert.equal(unknown.error?.code, -32602);
    assert.match(unknown.error!.message, /unknown model provider "nope"/);
  });

  it('has no sign-in to cancel', async () => {
    const server = await serve(agentHome('responses', model.baseUrl));
    assert.deepEqual(await server.call('account/login/cancel', { loginId: 'x' }), { status: 'notFound' });
  });

  it('refuses ChatGPT sign-in and empty keys with clear errors', async () => {
    const server = await serve(agentHome('responses', model.baseUrl));
    const chatgpt = await server.request('account/login/start', { type: 'chatgpt' });
    assert.equal(chatgpt.error?.code, -32600);
    assert.match(chatgpt.error!.message, /not offered by Threadline/);
    const empty = await server.request('account/login/start', { type: 'apiKey', apiKey: '  ' });
    assert.equal(empty.error?.code, -32602);
  });
});
