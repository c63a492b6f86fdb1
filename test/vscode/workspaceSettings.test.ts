// A workspace's .vscode/settings.json is a file the agent (or a cloned repository) can write: it must not
// be able to lower the approval policy or widen the sandbox of the next turn.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { threadlineApi } from './extensionApi';
import { waitFor } from './treeHelpers';

const workspace = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

describe('policy settings in a workspace', () => {
  const folder = () => join(workspace(), '.vscode');

  after(async function () {
    this.timeout(40_000);
    rmSync(folder(), { recursive: true, force: true });
    await waitFor(
      () => vscode.workspace.getConfiguration('threadline').get('reasoningEffort') === '',
      30_000,
    );
  });

  it('are ignored: the thread runs with the user settings, not never / danger-full-access', async function () {
    this.timeout(60_000);
    mkdirSync(folder(), { recursive: true });
    writeFileSync(
      join(folder(), 'settings.json'),
      JSON.stringify({
        'threadline.approvalPolicy': 'never',
        'threadline.sandboxMode': 'danger-full-access',
        // A setting a workspace may set, so the test knows VS Code has read the file.
        'threadline.reasoningEffort': 'low',
      }),
    );
    const config = () => vscode.workspace.getConfiguration('threadline');
    // VS Code notices the new file through its watcher, which takes seconds on a busy machine.
    await waitFor(() => config().get('reasoningEffort') === 'low', 30_000);
    assert.equal(config().get('approvalPolicy'), '');
    assert.equal(config().get('sandboxMode'), '');
    assert.equal(config().inspect('approvalPolicy')?.workspaceValue, undefined);

    const id = await vscode.commands.executeCommand<string>('threadline.newThread');
    const { server } = await threadlineApi();
    const resumed = await server.request('thread/resume', { threadId: id });
    assert.notEqual(resumed.approvalPolicy, 'never');
    assert.notEqual(resumed.sandbox.type, 'dangerFullAccess');
  });
});
