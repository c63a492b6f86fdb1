// The shared server connection inside the real extension host: launched with the host's own runtime,
// typed requests, notifications to subscribers, and a restart that keeps the threads. Also run with
// codex app-server as the configured server (see ./serverUnderTest).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { threadlineServer } from './extensionApi';
import { codex, modelForThreadTurns, serverHome, startThread } from './serverUnderTest';
import { waitFor } from './treeHelpers';

describe('the shared server connection', function () {
  // Under codex the threads that must survive a restart get a model turn first.
  this.timeout(60_000);
  modelForThreadTurns();

  it('starts the configured server on first use and answers typed requests', async () => {
    const server = await threadlineServer();
    const { thread } = await server.request('thread/start', {});
    assert.ok(thread.id);
    assert.equal(server.state, 'ready');
    if (codex) assert.doesNotMatch(server.info?.userAgent ?? '', /^threadline\//);
    else assert.match(server.info?.userAgent ?? '', /^threadline\//);
    assert.equal(server.isThreadline, !codex);
    assert.equal(server.info?.codexHome, serverHome(), "the test home, not the user's");
  });

  it('delivers notifications to subscribers of their method only', async () => {
    const server = await threadlineServer();
    const started: string[] = [];
    const renamed: (string | null)[] = [];
    const subscriptions = [
      server.onNotification('thread/started', ({ thread }) => started.push(thread.id)),
      server.onNotification('thread/name/updated', ({ threadName }) => renamed.push(threadName)),
    ];
    const { thread } = await server.request('thread/start', {});
    await server.request('thread/name/set', { threadId: thread.id, name: 'Named in the editor' });
    await waitFor(() => renamed.length === 1);
    // A thread/started of an earlier test's thread may arrive late, so look for ours only.
    assert.ok(started.includes(thread.id));
    assert.deepEqual(renamed, ['Named in the editor']);
    subscriptions.forEach((s) => s.dispose());
    await server.request('thread/name/set', { threadId: thread.id, name: 'Again' });
    assert.deepEqual(renamed, ['Named in the editor'], 'a disposed subscription hears nothing');
  });

  it('restarts on "Threadline: Restart Server" and tells listeners, threads kept', async () => {
    const server = await threadlineServer();
    const thread = await startThread({});
    let restarted = 0;
    const subscription = server.onRestarted(() => restarted++);
    await vscode.commands.executeCommand('threadline.restartServer');
    await waitFor(() => restarted === 1);
    subscription.dispose();
    const { thread: read } = await server.request('thread/read', { threadId: thread.id });
    assert.equal(read.id, thread.id);
  });
});

describe('threads kept open across a crash', function () {
  this.timeout(60_000);
  modelForThreadTurns();

  it('resumes a kept thread after the server is killed and reports it', async () => {
    const server = await threadlineServer();
    const thread = await startThread({});
    const kept = server.keepSubscribed(thread.id);
    const resumed: string[] = [];
    const subscription = server.onResubscribed((response) => resumed.push(response.thread.id));
    process.kill(server.pid!, 'SIGKILL');
    await waitFor(() => resumed.includes(thread.id), 5_000);
    const { data } = await server.request('thread/loaded/list', {});
    assert.ok(data.includes(thread.id), 'loaded again in the new server');
    kept.dispose();
    subscription.dispose();
  });
});
