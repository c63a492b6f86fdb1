// Runs inside the extension host with the real vscode API: proves the extension is loaded the way users get
// it, and that it can run the server as a Node child process.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extension } from './extensionApi';

describe('Threadline in VS Code', () => {
  it('activates', async () => {
    await extension().activate();
    assert.equal(extension().isActive, true);
  });

  it('registers its commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    const contributed = (extension().packageJSON as { contributes: { commands: { command: string }[] } })
      .contributes.commands;
    for (const { command } of contributed)
      assert.ok(commands.includes(command), `${command} is not registered`);
  });

  it('opens its view container', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.threadline');
  });

  it('runs the server as a child process (Threadline: About)', async () => {
    const answer = await vscode.commands.executeCommand<string>('threadline.about');
    const version = (extension().packageJSON as { version: string }).version;
    assert.equal(answer, `threadline ${version}`);
  });
});
