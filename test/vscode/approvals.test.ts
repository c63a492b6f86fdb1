// Approvals inside the real editor, against the server under test (ours, or codex in the reference run)
// and the scripted model: a proposed file change
// opens as diff tabs with exactly the current and proposed text, the title actions answer it and the
// tabs close; a command approval runs or does not; an interrupted turn settles what it left pending.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { sidesOfChange } from '../../extension/conversation/changeBase';
import type { FileUpdateChange } from '../../server/protocol/fileChange';
import { startModelServer, type ModelServer } from '../fixtures/modelServer/server';
import { threadlineApi } from './extensionApi';
import { codex, patchCall, serverHome, useScriptedModel } from './serverUnderTest';
import { waitFor } from './treeHelpers';

const workspace = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const execCall = (cmd: string) => ({
  output: [{ toolCall: { name: 'exec_command', arguments: JSON.stringify({ cmd }), callId: 'call_exec' } }],
});
const done = { output: [{ text: 'Done.' }] };

/** The diff tabs a pending file change opened (their modified side is our proposed file system). */
const proposedTabs = () =>
  vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter(
      (tab) =>
        tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'threadline-proposed',
    );

/** The proposed side of the first pending diff tab. */
const proposedSide = () => (proposedTabs()[0]!.input as vscode.TabInputTextDiff).modified;

const textOf = async (uri: vscode.Uri) => (await vscode.workspace.openTextDocument(uri)).getText();

describe('approvals in the editor', function () {
  this.timeout(60_000);
  let model: ModelServer;
  let dir: string;

  before(async () => {
    model = await startModelServer();
    await useScriptedModel(model.baseUrl);
    dir = join(workspace(), 'approvals');
    mkdirSync(dir, { recursive: true });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(join(serverHome(), 'config.toml'), { force: true });
    rmSync(dir, { recursive: true, force: true });
    await model.close();
  });

  afterEach(() => model.reset());

  async function turn(script: object[], approvalPolicy = 'untrusted') {
    const { server } = await threadlineApi();
    const { thread } = await server.request('thread/start', {
      cwd: workspace(),
      approvalPolicy: approvalPolicy as 'untrusted',
      sandbox: 'workspace-write',
    });
    let completed = false;
    const subscription = server.onNotification('turn/completed', (p) => {
      completed ||= p.threadId === thread.id;
    });
    model.script(...(script as Parameters<ModelServer['script']>));
    const started = await server.request('turn/start', {
      threadId: thread.id,
      input: [{ type: 'text', text: 'Go' }],
    });
    return {
      threadId: thread.id,
      turnId: started.turn.id,
      completed: async () => {
        await waitFor(() => completed, 20_000);
        subscription.dispose();
      },
    };
  }

  async function pendingFileChange(threadId: string) {
    const { approvals } = await threadlineApi();
    await waitFor(() => approvals.list(threadId).length === 1 && proposedTabs().length > 0, 10_000);
    return approvals.list(threadId)[0]!;
  }

  /** A one-line file in the workspace and a turn whose patch changes that line, waiting for approval. */
  async function proposeEdit(name: string, before: string, after: string) {
    writeFileSync(join(dir, name), `${before}\n`);
    const patch = `*** Begin Patch\n*** Update File: approvals/${name}\n@@\n-${before}\n+${after}\n*** End Patch`;
    const run = await turn([patchCall(patch), done]);
    return { run, prompt: await pendingFileChange(run.threadId) };
  }

  it('opens a proposed edit as a diff with the exact sides; Accept in its title applies it and closes the tab', async () => {
    writeFileSync(join(dir, 'app.txt'), 'one\ntwo\nthree\n');
    const patch = [
      '*** Begin Patch',
      '*** Update File: approvals/app.txt',
      '@@',
      ' one',
      '-two',
      '+TWO',
      ' three',
      '*** End Patch',
    ].join('\n');
    const run = await turn([patchCall(patch), done]);
    const prompt = await pendingFileChange(run.threadId);
    assert.equal(prompt.kind, 'fileChange');
    const [tab] = proposedTabs();
    const input = tab!.input as vscode.TabInputTextDiff;
    assert.equal(tab!.label, 'Threadline: proposed edit — approvals/app.txt');
    assert.equal(await textOf(input.original), 'one\ntwo\nthree\n');
    assert.equal(await textOf(input.modified), 'one\nTWO\nthree\n');
    assert.equal(readFileSync(join(dir, 'app.txt'), 'utf8'), 'one\ntwo\nthree\n', 'nothing written yet');
    // Closed by hand, the diff comes back from the status bar item's command (the oldest prompt).
    await vscode.window.tabGroups.close(proposedTabs());
    assert.equal(proposedTabs().length, 0);
    await vscode.commands.executeCommand('threadline.approval.showOldest');
    await waitFor(() => proposedTabs().length === 1);

    assert.equal(await vscode.commands.executeCommand('threadline.approval.accept', input.modified), true);
    await run.completed();
    assert.equal(readFileSync(join(dir, 'app.txt'), 'utf8'), 'one\nTWO\nthree\n');
    await waitFor(() => proposedTabs().length === 0);
    const { approvals } = await threadlineApi();
    assert.deepEqual(approvals.list(run.threadId), []);
    assert.equal(
      await vscode.commands.executeCommand('threadline.approval.accept', input.modified),
      false,
      'a second answer is refused',
    );
  });

  it('shows every file of a change, new and deleted ones included, numbered; Decline leaves the disk alone', async () => {
    writeFileSync(join(dir, 'gone.txt'), 'bye\n');
    const patch = [
      '*** Begin Patch',
      '*** Add File: approvals/new.txt',
      '+hello',
      '*** Delete File: approvals/gone.txt',
      '*** End Patch',
    ].join('\n');
    const run = await turn([patchCall(patch), done]);
    await pendingFileChange(run.threadId);
    await waitFor(() => proposedTabs().length === 2);
    const tabs = proposedTabs();
    const sides = await Promise.all(
      tabs.map(async (tab) => {
        const input = tab.input as vscode.TabInputTextDiff;
        return [tab.label, await textOf(input.original), await textOf(input.modified)];
      }),
    );
    const expected = [
      ['Threadline: proposed new file — approvals/new.txt (1 of 2)', '', 'hello\n'],
      ['Threadline: proposed deletion — approvals/gone.txt (2 of 2)', 'bye\n', ''],
    ];
    if (codex) {
      // codex lists a change's files in its own order (not the patch's); each is still numbered once.
      const unnumbered = (rows: string[][]) =>
        rows.map(([label, ...rest]) => [label!.replace(/ \(\d of 2\)$/, ''), ...rest]).sort();
      assert.deepEqual(unnumbered(sides), unnumbered(expected));
      assert.deepEqual(sides.map(([label]) => label!.slice(-8)).sort(), ['(1 of 2)', '(2 of 2)']);
    } else assert.deepEqual(sides, expected);
    await vscode.commands.executeCommand(
      'threadline.approval.decline',
      (tabs[1]!.input as vscode.TabInputTextDiff).modified,
    );
    await run.completed();
    await waitFor(() => proposedTabs().length === 0);
    assert.equal(existsSync(join(dir, 'new.txt')), false);
    assert.equal(readFileSync(join(dir, 'gone.txt'), 'utf8'), 'bye\n');
  });

  // codex takes no edited answers (it has no acceptWithEdits): the proposal stays as the model made it.
  if (codex) {
    it('keeps a proposal read-only where the server takes no edits; Accept applies it as proposed', async () => {
      const { server } = await threadlineApi();
      assert.equal(server.info?.threadline, undefined, 'codex says nothing of edited answers');
      const { run } = await proposeEdit('edit.txt', 'a', 'b');
      assert.equal(vscode.workspace.fs.isWritableFileSystem('threadline-proposed'), false);
      // Typed into, as a user would: the read-only editor takes nothing.
      const editor = await vscode.window.showTextDocument(proposedSide());
      await vscode.commands.executeCommand('type', { text: 'mine' });
      assert.equal(editor.document.getText(), 'b\n');
      assert.equal(editor.document.isDirty, false);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.commands.executeCommand('threadline.approval.accept', proposedSide());
      await run.completed();
      assert.equal(readFileSync(join(dir, 'edit.txt'), 'utf8'), 'b\n');
      await waitFor(() => proposedTabs().length === 0);
    });
  } else
    it('takes an edited proposal: Accept sends the edited file, which lands on disk, and the model is told', async () => {
      const { server } = await threadlineApi();
      assert.equal(server.info?.threadline?.acceptWithEdits, true, 'our server takes edited answers');
      const applied: FileUpdateChange[] = [];
      const items = server.onNotification('item/completed', ({ item }) => {
        if (item.type === 'fileChange') applied.push(...item.changes);
      });
      const { run } = await proposeEdit('edit.txt', 'a', 'b');
      assert.equal(vscode.workspace.fs.isWritableFileSystem('threadline-proposed'), true);
      const document = await vscode.workspace.openTextDocument(proposedSide());
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), 'b\nmine\n');
      assert.equal(await vscode.workspace.applyEdit(edit), true);
      assert.equal(document.isDirty, true, 'edited, not saved');
      await vscode.commands.executeCommand('threadline.approval.accept', proposedSide());
      await run.completed();
      assert.equal(readFileSync(join(dir, 'edit.txt'), 'utf8'), 'b\nmine\n');
      await waitFor(() => proposedTabs().length === 0);
      const followUp = JSON.stringify(model.requests.filter((r) => r.method === 'POST')[1]!.body);
      assert.match(followUp, /The user edited your patch before accepting it/);
      assert.match(followUp, /\+mine/);
      // "Open diff" on the completed item rebuilds its sides from the item and the disk: what was applied.
      items.dispose();
      const [change] = applied;
      const disk = readFileSync(join(dir, 'edit.txt'), 'utf8');
      assert.deepEqual(sidesOfChange(change!.kind.type, change!.diff, disk), {
        before: 'a\n',
        after: 'b\nmine\n',
      });
    });

  it('settles the prompts of an interrupted turn and closes their tabs', async () => {
    const { run, prompt } = await proposeEdit('stop.txt', 'x', 'y');
    const { server, approvals } = await threadlineApi();
    const outcomes: unknown[] = [];
    const subscription = approvals.onDidChange(({ settled }) => {
      if (settled?.prompt.key === prompt.key) outcomes.push(settled.outcome);
    });
    await server.request('turn/interrupt', { threadId: run.threadId, turnId: run.turnId });
    await run.completed();
    await waitFor(() => proposedTabs().length === 0 && outcomes.length === 1);
    subscription.dispose();
    // codex ends the turn before it withdraws the request; ours withdraws it first.
    const outcome = codex ? { cancelled: 'turn interrupted' } : { resolvedElsewhere: true };
    assert.deepEqual(outcomes, [outcome]);
    assert.deepEqual(approvals.list(run.threadId), []);
    assert.equal(readFileSync(join(dir, 'stop.txt'), 'utf8'), 'x\n');
  });

  for (const [decision, runs] of [
    ['accept', true],
    ['decline', false],
  ] as const) {
    it(`a command approval answered ${decision} ${runs ? 'runs' : 'does not run'} the command`, async () => {
      const marker = join(dir, `${decision}.marker`);
      const run = await turn([execCall(`touch approvals/${decision}.marker`), done]);
      const { approvals } = await threadlineApi();
      await waitFor(() => approvals.list(run.threadId).length === 1, 10_000);
      const [prompt] = approvals.list(run.threadId);
      assert.equal(prompt!.kind, 'commandExecution');
      assert.equal(existsSync(marker), false);
      assert.equal(approvals.answer(prompt!.key, { decision }), true);
      assert.equal(approvals.answer(prompt!.key, { decision: 'accept' }), false);
      await run.completed();
      assert.equal(existsSync(marker), runs);
    });
  }

  it('notifies a prompt whose view is hidden before it was answered', async () => {
    const { approvals, alerts } = await threadlineApi();
    const run = await turn([execCall('touch approvals/hidden.marker'), done]);
    // As the conversation view does while it shows the thread.
    const shown = approvals.markVisible(run.threadId);
    await waitFor(() => approvals.list(run.threadId).length === 1, 10_000);
    const [prompt] = approvals.list(run.threadId);
    const notifiedOnArrival = alerts.notified.includes(prompt!.key);
    assert.equal(
      notifiedOnArrival,
      !vscode.window.state.focused,
      'shown in a focused window: no notification',
    );
    shown.dispose();
    assert.ok(alerts.notified.includes(prompt!.key), 'its view went away: notified');
    assert.equal(alerts.notified.filter((key) => key === prompt!.key).length, 1, 'once');
    approvals.answer(prompt!.key, { decision: 'decline' });
    await run.completed();
  });

  it('queues prompts of two threads: counted in the status bar, the tree and the badge, notified, each answered once', async () => {
    const { approvals, alerts, threads } = await threadlineApi();
    const first = await turn([execCall('touch approvals/first.marker')]);
    await waitFor(() => approvals.list(first.threadId).length === 1, 10_000);
    const second = await turn([execCall('touch approvals/second.marker'), done, done]);
    await waitFor(() => approvals.list(second.threadId).length === 1, 10_000);
    const keys = approvals.list().map((p) => p.key);
    assert.deepEqual(
      approvals.list().map((p) => p.threadId),
      [first.threadId, second.threadId],
      'oldest first',
    );
    assert.equal(alerts.statusText, '$(bell) Threadline: waiting for approval (2)');
    assert.ok(
      keys.every((key) => alerts.notified.includes(key)),
      'no view shows these threads: notified',
    );
    await waitFor(() => threads.model.thread(second.threadId) !== undefined);
    const item = threads.provider.getTreeItem(threads.model.thread(second.threadId)!) as vscode.TreeItem;
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'bell-dot');
    assert.match(String(item.description), /^waiting for your approval/);
    assert.ok(((threads.view.badge?.value ?? 0) as number) >= 2);

    for (const key of keys) assert.equal(approvals.answer(key, { decision: 'decline' }), true);
    for (const key of keys) assert.equal(approvals.answer(key, { decision: 'accept' }), false);
    await first.completed();
    await second.completed();
    assert.equal(alerts.statusText, undefined);
    const after = threads.provider.getTreeItem(threads.model.thread(second.threadId)!) as vscode.TreeItem;
    assert.notEqual((after.iconPath as vscode.ThemeIcon).id, 'bell-dot');
    assert.equal(existsSync(join(dir, 'first.marker')) || existsSync(join(dir, 'second.marker')), false);
  });
});
