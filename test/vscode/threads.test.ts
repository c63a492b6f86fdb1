// The Threads view inside the real extension host: its TreeView resolves what the server lists, the
// view's commands act through the server, live updates arrive, and a killed server comes back quickly
// with the same tree. Also run against codex app-server (see ./serverUnderTest).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ThreadNode, TreeNode } from '../../extension/threads/treeNodes';
import { tempDir } from '../support/tempDirs';
import { threadlineApi } from './extensionApi';
import { codex, modelForThreadTurns, startThread } from './serverUnderTest';
import { archivedIds, shownIds, waitFor } from './treeHelpers';

const workspace = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

describe('the Threads view', function () {
  // Under codex each thread gets a model turn first.
  this.timeout(60_000);
  modelForThreadTurns();

  before(async () => {
    await vscode.commands.executeCommand('workbench.view.extension.threadline');
  });

  it('shows a thread started through the server at once, and the TreeView can reveal it', async () => {
    const { server, threads } = await threadlineApi();
    await shownIds(); // listed before, so the thread arrives as a live update
    const { thread } = await server.request('thread/start', { cwd: workspace() });
    await waitFor(async () => (await shownIds())[0] === thread.id);
    const node = threads.model.thread(thread.id)!;
    await threads.view.reveal(node, { select: true, focus: false });
    assert.deepEqual(
      threads.view.selection.map((n) => (n as ThreadNode).thread.id),
      [thread.id],
    );
  });

  it('New Thread starts a thread in the workspace folder', async () => {
    const id = await vscode.commands.executeCommand<string>('threadline.newThread');
    assert.ok(id);
    const { server } = await threadlineApi();
    const { thread } = await server.request('thread/read', { threadId: id });
    assert.equal(thread.cwd, workspace());
    await waitFor(async () => (await shownIds()).includes(id));
  });

  it('archives a multi-selection into Archived, and unarchives it back', async () => {
    const { threads } = await threadlineApi();
    const a = (await startThread({ cwd: workspace() })).id;
    const b = (await startThread({ cwd: workspace() })).id;
    await waitFor(async () => (await shownIds()).includes(b));
    const nodes: TreeNode[] = [threads.model.thread(a)!, threads.model.thread(b)!];
    await vscode.commands.executeCommand('threadline.archiveThread', nodes[0], nodes);
    await waitFor(async () => !(await shownIds()).some((id) => id === a || id === b));
    assert.deepEqual((await archivedIds()).filter((id) => id === a || id === b).sort(), [a, b].sort());
    await vscode.commands.executeCommand('threadline.unarchiveThread', threads.model.thread(a));
    await waitFor(async () => (await shownIds()).includes(a));
    assert.equal((await archivedIds()).includes(a), false);
    assert.equal((await archivedIds()).includes(b), true);
  });

  it('follows a rename made anywhere, keeping the node', async () => {
    const { server, threads } = await threadlineApi();
    const thread = await startThread({ cwd: workspace() });
    await waitFor(async () => (await shownIds()).includes(thread.id));
    const node = threads.model.thread(thread.id)!;
    await server.request('thread/name/set', { threadId: thread.id, name: 'Renamed from the test' });
    await waitFor(() => node.thread.name === 'Renamed from the test');
    assert.equal(threads.model.thread(thread.id), node);
  });

  it('lists every workspace after "Show Threads of All Workspaces", and only this one again after', async () => {
    const thread = await startThread({ cwd: tempDir('threadline-elsewhere-') });
    await vscode.commands.executeCommand('threadline.refreshThreads');
    assert.equal((await shownIds()).includes(thread.id), false);
    await vscode.commands.executeCommand('threadline.showAllWorkspaces');
    assert.equal((await shownIds()).includes(thread.id), true);
    await vscode.commands.executeCommand('threadline.showWorkspaceOnly');
    assert.equal((await shownIds()).includes(thread.id), false);
  });

  it('comes back within 2 s after the server is killed, with the same tree', async () => {
    const { server } = await threadlineApi();
    // codex forgets a thread that never had a turn when it stops (so does its listing, at once).
    if (codex) await vscode.commands.executeCommand('threadline.refreshThreads');
    const before = await shownIds();
    assert.ok(before.length >= 3);
    const pid = server.pid;
    assert.ok(pid);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    await waitFor(() => server.pid !== pid && server.state === 'ready', 2_000);
    const after = await shownIds();
    const elapsed = Date.now() - killedAt;
    console.log(`      server back and tree listed ${elapsed} ms after SIGKILL`);
    assert.ok(elapsed < 2_000, `took ${elapsed} ms`);
    assert.deepEqual(after, before);
  });
});
