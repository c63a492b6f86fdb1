import { strict as assert } from 'node:assert';
import {
  ServerClient,
  type ServerClientOptions,
  type ServerState,
} from '../../extension/client/serverClient';
import { RestartPolicy } from '../../extension/client/restartPolicy';
import { join } from 'node:path';
import { repoRoot, serverBundle } from '../support/paths';
import { tempDir } from '../support/serverProcess';
import { until } from '../support/until';

const askingServer = join(repoRoot, 'test', 'fixtures', 'serverThatAsks.mjs');
const notifyingServer = join(repoRoot, 'test', 'fixtures', 'serverThatNotifies.mjs');

function client(
  home: string,
  command = process.execPath,
  args = [serverBundle, 'app-server'],
  trace?: ServerClientOptions['trace'],
) {
  const lines: string[] = [];
  const serverLines: string[] = [];
  const states: ServerState[] = [];
  const c = new ServerClient({
    launch: () => ({ command, args, env: { ...process.env, THREADLINE_HOME: home } }),
    clientInfo: { name: 'threadline_vscode', title: 'Threadline', version: '0.0.0' },
    log: {
      info: (m) => lines.push(m),
      warn: (m) => lines.push(m),
      error: (m) => lines.push(m),
      server: (l) => serverLines.push(l),
    },
    trace,
    policy: new RestartPolicy(4, 60_000),
  });
  c.onStateChange((state) => states.push(state));
  return { c, lines, states, serverLines };
}

describe('the extension client against the real server', () => {
  it('starts the server lazily on the first request and initializes it', async () => {
    const { c, states } = client(tempDir());
    assert.equal(c.state, 'stopped');
    const { thread } = await c.request('thread/start', {});
    assert.ok(thread.id);
    assert.deepEqual(states, ['starting', 'ready']);
    await c.dispose();
  });

  it('restarts a killed server, rejects what was pending, and tells listeners to re-open threads', async () => {
    const home = tempDir();
    const { c, states } = client(home);
    const { thread } = await c.request('thread/start', {});
    let restarted = 0;
    c.onRestarted(() => restarted++);
    const running = (c as unknown as { running: { child: { kill(s: string): void } } }).running;
    const pending = c.request('thread/list', { sourceKinds: ['vscode'] });
    running.child.kill('SIGKILL');
    await assert.rejects(pending, /server (was killed by SIGKILL|exited)/);
    await until(() => restarted === 1);
    assert.equal(c.state, 'ready');
    assert.ok(states.includes('restarting'));
    const listed = await c.request('thread/list', { sourceKinds: ['vscode'] });
    assert.deepEqual(
      listed.data.map((t) => t.id),
      [thread.id],
      'threads survive the crash',
    );
    await c.dispose();
  });

  it('stops restarting a server that keeps crashing, and says so with its last words', async () => {
    const refusal =
      'console.error("Error: key sk-abcdefghijkl refused; remove this setting"); process.exit(3)';
    const { c, states, lines } = client(tempDir(), process.execPath, ['-e', refusal]);
    await assert.rejects(c.request('thread/list', {}), /exited with code 3/);
    await until(() => c.state === 'failed');
    assert.ok(states.includes('restarting'));
    const exits = lines.filter((l) => /^Threadline's server exited with code 3$/.test(l));
    assert.equal(exits.length, 5, 'the first start and four restarts');
    assert.equal(
      c.failure,
      'The server exited with code 3 repeatedly; it was not restarted. ' +
        'Its last words: Error: key [redacted] refused; remove this setting',
    );
    await c.dispose();
  });

  it('fails clearly when the server command does not exist', async () => {
    const { c, lines } = client(tempDir(), '/nonexistent/threadline-server', []);
    await assert.rejects(c.request('thread/list', {}));
    await until(() => c.state === 'failed');
    assert.ok(lines.some((l) => /cannot start the Threadline server: .*ENOENT/.test(l)));
    await c.dispose();
  });

  it('answers a server request it has no handler for with -32601 naming the method, never silence', async () => {
    const { c, lines, serverLines } = client(tempDir(), process.execPath, [
      askingServer,
      'item/permissions/requestApproval',
    ]);
    await c.start();
    await until(() => serverLines.length > 0);
    assert.deepEqual(JSON.parse(serverLines[0]!.replace(/^answer /, '')), {
      code: -32601,
      message: 'Threadline does not handle item/permissions/requestApproval yet',
    });
    assert.match(lines.join('\n'), /item\/permissions\/requestApproval/);
    await c.dispose();
  });

  it('drops notifications that fail their schema (one log line per method) and keeps listening', async () => {
    const { c, lines, states } = client(tempDir(), process.execPath, [notifyingServer]);
    const heard: unknown[] = [];
    c.onNotification((notification) => heard.push(notification));
    await c.start();
    await until(() => heard.length > 0);
    assert.deepEqual(heard, [
      { method: 'thread/name/updated', params: { threadId: 't', threadName: 'still here' } },
    ]);
    const malformed = lines.filter((line) => line.startsWith('ignoring malformed'));
    assert.equal(malformed.length, 3, malformed.join('\n'));
    assert.match(malformed[0], /item\/agentMessage\/delta: \/delta/);
    assert.match(malformed[1], /thread\/closed/);
    assert.match(malformed[2], /turn\/completed: \/turn/);
    assert.ok(!lines.some((line) => /future\/thing|__proto__/.test(line)), 'unknown methods are not errors');
    assert.deepEqual(states, ['starting', 'ready']);
    await c.dispose();
  });

  it('passes a server request to the handler registered for it, and its answer back', async () => {
    const { c, serverLines } = client(tempDir(), process.execPath, [
      askingServer,
      'item/fileChange/requestApproval',
    ]);
    const asked: unknown[] = [];
    const stop = c.handleServerRequest('item/fileChange/requestApproval', async (params, id) => {
      asked.push(params, id);
      return { decision: 'decline' };
    });
    assert.throws(
      () => c.handleServerRequest('item/fileChange/requestApproval', async () => ({})),
      /already/,
    );
    await c.start();
    await until(() => serverLines.length > 0);
    assert.deepEqual(asked, [{ threadId: 't', turnId: 'u', itemId: 'i' }, 'ask-1']);
    assert.deepEqual(JSON.parse(serverLines[0]!.replace(/^answer /, '')), { decision: 'decline' });
    stop.dispose();
    await c.dispose();
  });

  it('traces every message both ways, the handshake included', async () => {
    const traced: string[] = [];
    const { c } = client(tempDir(), undefined, undefined, (direction, message) => {
      const m = message as { method?: string; result?: unknown };
      traced.push(`${direction} ${m.method ?? (m.result ? 'result' : 'error')}`);
    });
    await c.request('thread/loaded/list', {});
    assert.deepEqual(traced, [
      'send initialize',
      'receive result',
      'send initialized',
      'send thread/loaded/list',
      'receive result',
    ]);
    await c.dispose();
  });

  it('after a crash loop, refuses requests until restarted by hand', async () => {
    const { c } = client(tempDir(), process.execPath, ['-e', 'process.exit(3)']);
    await assert.rejects(c.request('thread/list', {}));
    await until(() => c.state === 'failed');
    await assert.rejects(
      c.request('thread/list', {}),
      /has stopped: The server exited with code 3 repeatedly/,
    );
    assert.equal(c.state, 'failed', 'no new launch');
    await c.dispose();
  });

  it('restarts on request with a fresh crash budget, and tells listeners to re-open threads', async () => {
    const { c } = client(tempDir());
    let restarted = 0;
    c.onRestarted(() => restarted++);
    await c.start();
    await c.restart();
    assert.equal(restarted, 1);
    assert.equal(c.state, 'ready');
    assert.ok(await c.request('thread/loaded/list', {}));
    await c.dispose();
    assert.equal(c.state, 'stopped');
  });
});
