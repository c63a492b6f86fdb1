// The extension with `threadline.server.command` set to the reference server (`codex app-server` from
// @openai/codex 0.169, its binary shipped in the npm package; ./serverUnderTest sets it), its config
// pointing at the scripted model server: the tree lists, renames, archives and unarchives, forks and shows other workspaces; a turn
// streams; file-change and command approvals are answered from the editor; and the extension knows it is
// not talking to its own server.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startModelServer, type ModelServer } from '../fixtures/modelServer/server';
import { tempDir } from '../support/tempDirs';
import { threadlineApi } from './extensionApi';
import { patchCall, serverHome, useScriptedModel } from './serverUnderTest';
import { archivedIds, shownIds, waitFor } from './treeHelpers';

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

  it('runs the configured command and knows it is not its own server', async () => {
    const { server } = await threadlineApi();
    const info = await server.start();
    assert.equal(info.codexHome, serverHome());
    assert.doesNotMatch(info.userAgent, /^threadline\//);
    assert.equal(server.isThreadline, false, 'features only Threadline has stay hidden');
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

  it('follows a rename', async () => {
    const { server, threads } = await threadlineApi();
    await server.request('thread/name/set', { threadId, name: 'Named on codex' });
    await waitFor(() => threads.model.thread(threadId)?.thread.name === 'Named on codex');
  });

  it('archives into Archived and unarchives back', async () => {
    const { threads } = await threadlineApi();
    await vscode.commands.executeCommand('threadline.archiveThread', threads.model.thread(threadId));
    await waitFor(async () => !(await shownIds()).includes(threadId));
    assert.deepEqual(await archivedIds(), [threadId]);
    await vscode.commands.executeCommand('threadline.unarchiveThread', threads.model.thread(threadId));
    await waitFor(async () => (await shownIds()).includes(threadId));
    assert.deepEqual(await archivedIds(), []);
  });

  it('opens its file-change approval as a diff whose proposed side stays read-only; Decline leaves the file', async () => {
    const { server, approvals } = await threadlineApi();
    const file = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'reference.txt');
    writeFileSync(file, 'before\n');
    const patch = '*** Begin Patch\n*** Update File: reference.txt\n@@\n-before\n+after\n*** End Patch';
    model.script(patchCall(patch), { output: [{ text: 'Declined, fine.' }] });
    const { thread } = await server.request('thread/start', {
      cwd: vscode.workspace.workspaceFolders![0]!.uri.fsPath,
      approvalPolicy: 'on-request',
      sandbox: 'read-only',
    });
    let completed = false;
    const subscription = server.onNotification(
      'turn/completed',
      (p) => (completed ||= p.threadId === thread.id),
    );
    await server.request('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'Edit it' }] });
    const proposedTabs = () =>
      vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .filter(
          (tab) =>
            tab.input instanceof vscode.TabInputTextDiff &&
            tab.input.modified.scheme === 'threadline-proposed',
        );
    await waitFor(() => approvals.list(thread.id).length === 1 && proposedTabs().length === 1, 20_000);
    const input = proposedTabs()[0]!.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), 'before\n');
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'after\n');
    assert.equal(server.info?.threadline, undefined, 'the reference server does not take edited answers');
    assert.equal(vscode.workspace.fs.isWritableFileSystem('threadline-proposed'), false);
    assert.equal(await vscode.commands.executeCommand('threadline.approval.decline', input.modified), true);
    await waitFor(() => completed && proposedTabs().length === 0, 20_000);
    subscription.dispose();
    assert.equal(readFileSync(file, 'utf8'), 'before\n');
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

  it('lists another workspace\'s threads only after "Show Threads of All Workspaces"', async () => {
    const { server } = await threadlineApi();
    const elsewhere = tempDir('threadline-reference-elsewhere-');
    const { thread } = await server.request('thread/start', { cwd: elsewhere });
    // The reference lists a thread once it has a turn.
    model.script({ output: [{ text: 'Elsewhere.' }] });
    let completed = false;
    const subscription = server.onNotification(
      'turn/completed',
      (p) => (completed ||= p.threadId === thread.id),
    );
    await server.request('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'Hi there' }] });
    await waitFor(() => completed, 20_000);
    subscription.dispose();
    await vscode.commands.executeCommand('threadline.refreshThreads');
    assert.equal((await shownIds()).includes(thread.id), false);
    await vscode.commands.executeCommand('threadline.showAllWorkspaces');
    await waitFor(async () => (await shownIds()).includes(thread.id), 20_000);
    await vscode.commands.executeCommand('threadline.showWorkspaceOnly');
    await waitFor(async () => !(await shownIds()).includes(thread.id), 20_000);
  });

  for (const [decision, runs] of [
    ['accept', true],
    ['decline', false],
  ] as const) {
    it(`asks before a command under untrusted approvals; ${decision} ${runs ? 'runs' : 'does not run'} it`, async () => {
      const { server, approvals } = await threadlineApi();
      const dir = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
      const marker = join(dir, `reference-${decision}.marker`);
      const cmd = `touch reference-${decision}.marker`;
      model.script(
        {
          output: [
            {
              toolCall: {
                name: 'exec_command',
                arguments: JSON.stringify({ cmd }),
                callId: `call_${decision}`,
              },
            },
          ],
        },
        { output: [{ text: 'Done.' }] },
      );
      const { thread } = await server.request('thread/start', {
        cwd: dir,
        approvalPolicy: 'untrusted',
        sandbox: 'danger-full-access',
      });
      let completed = false;
      const subscription = server.onNotification(
        'turn/completed',
        (p) => (completed ||= p.threadId === thread.id),
      );
      await server.request('turn/start', {
        threadId: thread.id,
        input: [{ type: 'text', text: 'Touch it' }],
      });
      await waitFor(() => approvals.list(thread.id).length === 1, 20_000);
      const [prompt] = approvals.list(thread.id);
      assert.equal(prompt!.kind, 'commandExecution');
      assert.equal(existsSync(marker), false);
      assert.equal(approvals.answer(prompt!.key, { decision }), true);
      await waitFor(() => completed, 20_000);
      subscription.dispose();
      assert.equal(existsSync(marker), runs);
      assert.deepEqual(approvals.list(thread.id), []);
    });
  }
});
