// Copy as Markdown, from the command palette or a tree row's menu: the thread's Markdown on the
// clipboard, the same text Export as Markdown writes (export/threadMarkdown.ts, tested on its own).
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { threadMarkdown } from '../../extension/export/threadMarkdown';
import { startModelServer, type ModelServer } from '../fixtures/modelServer/server';
import { threadlineApi } from './extensionApi';
import { serverHome, useScriptedModel } from './serverUnderTest';
import { waitFor } from './treeHelpers';

describe('Copy as Markdown', function () {
  this.timeout(60_000);
  let model: ModelServer;

  before(async () => {
    model = await startModelServer();
    await useScriptedModel(model.baseUrl, ['approval_policy = "never"']);
  });

  after(async () => {
    rmSync(join(serverHome(), 'config.toml'), { force: true });
    await model.close();
  });

  it('puts the thread on the clipboard as Markdown, the same text Export as Markdown writes', async () => {
    const { server } = await threadlineApi();
    const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const { thread } = await server.request('thread/start', { cwd });
    let ended = false;
    const subscription = server.onNotification('turn/completed', (p) => {
      ended ||= p.threadId === thread.id;
    });
    model.script({ output: [{ text: 'The answer is **42**.' }] });
    await server.request('turn/start', {
      threadId: thread.id,
      input: [{ type: 'text', text: 'What is the answer?' }],
    });
    await waitFor(() => ended, 20_000);
    subscription.dispose();
    await vscode.env.clipboard.writeText('before');
    await vscode.commands.executeCommand('threadline.copyMarkdown', thread.id);
    const copied = await vscode.env.clipboard.readText();
    assert.match(copied, /^# What is the answer\?\n/);
    assert.match(copied, /The answer is \*\*42\*\*\./);
    const read = await server.request('thread/read', { threadId: thread.id, includeTurns: true });
    assert.equal(copied, threadMarkdown(read.thread));
  });
});
