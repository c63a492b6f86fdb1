// The extension's client against the real `codex app-server` 0.169: codex cannot resume a thread that
// has no turn yet (it writes threads down at their first turn), so the conversation view opening a new
// thread resumes it through UnwrittenThreads, which stands in the thread/start answer; once a turn has
// started, thread/resume is codex's own again.
import { strict as assert } from 'node:assert';
import { ServerClient } from '../../extension/client/serverClient';
import { UnwrittenThreads } from '../../extension/client/unwrittenThreads';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, scriptedConfig } from '../support/agent';
import { codexBin } from '../support/paths';
import { tempDir } from '../support/serverProcess';
import { until } from '../support/until';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

describe('opening a thread codex has not written down yet', function () {
  this.timeout(60_000);
  const model = useModelServer();
  let client: ServerClient;
  const unwritten = new UnwrittenThreads();

  beforeEach(() => {
    const home = tempDir('threadline-codex-home-');
    const config = scriptedConfig(model.baseUrl, {
      extraTopLevel: 'approval_policy = "never"',
      requestMaxRetries: 0,
    });
    writeFileSync(join(home, 'config.toml'), config);
    client = new ServerClient({
      launch: () => ({
        command: codexBin,
        args: ['app-server'],
        env: { ...process.env, ...agentEnv, CODEX_HOME: home },
      }),
      clientInfo: { name: 'threadline_vscode', title: 'Threadline', version: '0.0.0' },
      log: { info() {}, warn() {}, error() {}, server() {} },
    });
    client.onNotification((notification) => unwritten.observe(notification));
  });
  afterEach(async () => {
    unwritten.clear();
    await client.dispose();
  });

  it('stands in the start answer until the first turn, then resumes through codex', async () => {
    const started = await client.request('thread/start', { cwd: tempDir('threadline-cwd-') });
    unwritten.started(started);
    const threadId = started.thread.id;
    await assert.rejects(
      client.request('thread/resume', { threadId, excludeTurns: true }),
      /no rollout found/,
      'codex itself cannot resume it yet',
    );
    const session = await unwritten.resume(client, threadId);
    assert.equal(session.thread.id, threadId);
    assert.equal(session.cwd, started.cwd);
    assert.equal(session.model, 'test-model');
    assert.equal(session.unwritten, true, 'the view reads no turns of it');

    // Renamed meanwhile: the stand-in carries the thread as codex reads it now.
    await client.request('thread/name/set', { threadId, name: 'Fresh' });
    assert.equal((await unwritten.resume(client, threadId)).thread.name, 'Fresh');

    let completed = false;
    client.onNotification((n) => (completed ||= n.method === 'turn/completed'));
    model.script({ output: [{ text: 'Hello.' }] });
    await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'Hi' }] });
    await until(() => completed, 20_000);
    const own = await client.request('thread/resume', { threadId, excludeTurns: true });
    assert.equal(own.thread.id, threadId, 'written down: codex resumes it itself');
    const resumed = await unwritten.resume(client, threadId);
    assert.equal(resumed.thread.preview, 'Hi');
    assert.equal(resumed.unwritten, undefined);
  });

  it('does not invent a session for a thread nobody started here', async () => {
    await assert.rejects(unwritten.resume(client, '01a21714-b629-70a2-94cf-539a5530d541'));
  });
});
