// What only the reference run checks (the shared suites, ./serverUnderTest, cover the tree, the
// connection and approvals against codex too): a turn streams into a thread the tree shows at once, and
// a fork from the tree holds its parent's history, though codex does not name the origin.
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startModelServer, type ModelServer } from '../fixtures/modelServer/server';
import { threadlineApi } from './extensionApi';
import { serverHome, useScriptedModel } from './serverUnderTest';
import { shownIds, waitFor } from './treeHelpers';

describe('Threadline with the reference server (codex app-server 0.169)', () => {
  let model: ModelServer;
  let threadId = '';

  before(async function () {
    // A settings write, a restart and a view opening: slow on a loaded machine.
    this.timeout(60_000);
    model = await startModelServer({ responses: [] });
    await useScriptedModel(model.baseUrl, ['approval_policy = "never"', 'sandbox_mode = "read-only"']);
    await vscode.commands.executeCommand('workbench.view.extension.threadline');
  });

  after(async () => {
    rmSync(join(serverHome(), 'config.toml'), { force: true });
    await model.close();
  });

  it('shows a new thread at once and streams a turn into it', async () => {
    const { server } = await threadlineApi();
    await shownIds();
    threadId = (await vscode.commands.executeCommand<string>('threadline.newThread'))!;
    assert.ok(threadId);
    await waitFor(async () => (await shownIds()).includes(threadId));

    model.script({ output: [{ text: ['Hello', ' from', ' the reference'] }] });
    const deltas: string[] = [];
    let completed = false;
    const subscriptions = [
      server.onNotification(
        'item/agentMessage/delta',
        (p) => p.threadId === threadId && deltas.push(p.delta),
      ),
      server.onNotification('turn/completed', (p) => (completed ||= p.threadId === threadId)),
    ];
    await server.request('turn/start', { threadId, input: [{ type: 'text', text: 'Say hello' }] });
    await waitFor(() => completed, 20_000);
    subscriptions.forEach((s) => s.dispose());
    assert.deepEqual(deltas, ['Hello', ' from', ' the reference']);
    assert.equal(model.requests.filter((r) => r.method === 'POST').length, 1);

    // Listed by the server itself now that the thread has a turn (not only from the live update).
    await vscode.commands.executeCommand('threadline.refreshThreads');
    assert.ok((await shownIds()).includes(threadId));
  });

  it('forks from the tree: the fork is listed and holds the parent history', async () => {
    const { threads } = await threadlineApi();
    const node = threads.model.thread(threadId)!;
    const before = await shownIds();
    await vscode.commands.executeCommand('threadline.forkThread', node);
    await waitFor(async () => (await shownIds()).length === before.length + 1, 20_000);
    const forkId = (await shownIds()).find((id) => !before.includes(id))!;
    await vscode.commands.executeCommand('threadline.refreshThreads');
    await waitFor(async () => (await shownIds()).includes(forkId), 20_000);
    // The reference's thread/list leaves forkedFromId out (null), so the tree cannot name the origin;
    // the fork holds the parent's turns.
    const { server } = await threadlineApi();
    const [fork, parent] = await Promise.all(
      [forkId, threadId].map(
        async (id) => (await server.request('thread/read', { threadId: id, includeTurns: true })).thread,
      ),
    );
    assert.equal(fork!.turns.length, parent!.turns.length);
    assert.ok(fork!.turns.length > 0);
  });
});
