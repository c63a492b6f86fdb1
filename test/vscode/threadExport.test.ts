// Copy as Markdown, from the command palette or a tree row's menu: the thread's Markdown on the
// clipboard, the same text Export as Markdown writes (export/threadMarkdown.ts, tested on its own).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { threadMarkdown } from '../../extension/export/threadMarkdown';
import { threadlineApi } from './extensionApi';
import { turnOnNewThread, useScriptedTurns } from './serverUnderTest';

describe('Copy as Markdown', function () {
  this.timeout(60_000);
  const model = useScriptedTurns();

  it('puts the thread on the clipboard as Markdown, the same text Export as Markdown writes', async () => {
    const answer = { output: [{ text: 'The answer is **42**.' }] };
    const { threadId } = await turnOnNewThread(model(), answer, 'What is the answer?');
    await vscode.env.clipboard.writeText('before');
    await vscode.commands.executeCommand('threadline.copyMarkdown', threadId);
    const copied = await vscode.env.clipboard.readText();
    assert.match(copied, /^# What is the answer\?\n/);
    assert.match(copied, /The answer is \*\*42\*\*\./);
    const { server } = await threadlineApi();
    const read = await server.request('thread/read', { threadId, includeTurns: true });
    assert.equal(copied, threadMarkdown(read.thread));
  });
});
