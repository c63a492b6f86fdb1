// The user's Codex history in the real editor: with CODEX_HOME pointing at real Codex 0.169 rollouts
// (test/fixtures/codexRollouts), the extension's own server lists them, the Threads tree tags them as
// Codex threads without rename or archive, and opening one opens its continuation in Threadline's home.
import * as assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ThreadNode } from '../../extension/threads/treeNodes';
import { repoRoot } from '../support/paths';
import { tempDir } from '../support/tempDirs';
import { threadlineApi } from './extensionApi';
import { shownIds, waitFor } from './treeHelpers';

const fixture = join(repoRoot, 'test', 'fixtures', 'codexRollouts');
/** The fixture's plain two-turn thread. */
const PLAIN = '01a20a52-548a-7be0-9c2c-2d5a267fc417';

async function restartServer(): Promise<void> {
  const { server } = await threadlineApi();
  await vscode.commands.executeCommand('threadline.restartServer');
  await waitFor(() => server.state === 'ready', 20_000);
}

describe('the Codex history in the Threads view', () => {
  const previous = process.env.CODEX_HOME;

  before(async () => {
    const codexHome = tempDir('threadline-codex-home-');
    for (const name of ['sessions', 'archived_sessions', 'session_index.jsonl']) {
      cpSync(join(fixture, name), join(codexHome, name), { recursive: true, preserveTimestamps: true });
    }
    // The server child inherits the extension host's environment.
    process.env.CODEX_HOME = codexHome;
    await restartServer();
    // The fixture's threads ran in a folder of their own, not this workspace.
    await vscode.commands.executeCommand('threadline.showAllWorkspaces');
  });

  after(async () => {
    process.env.CODEX_HOME = previous;
    await vscode.commands.executeCommand('threadline.showWorkspaceOnly');
    await restartServer();
  });

  it('tags Codex threads, with a history icon and no rename or archive', async () => {
    const { threads } = await threadlineApi();
    await waitFor(async () => (await shownIds()).includes(PLAIN), 10_000);
    const node = threads.model.thread(PLAIN)!;
    const item = threads.provider.getTreeItem(node);
    assert.match(String(item.description), /^Codex · /);
    assert.equal(item.contextValue, 'thread.codex');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'history');
    assert.match((item.tooltip as vscode.MarkdownString).value, /From your Codex history/);
    const named = (await shownIds()).map((id) => threads.model.thread(id)!.thread.name);
    assert.ok(named.includes('A named Codex thread'), 'names come from Codex');
  });

  it('opens a Codex thread as its continuation in Threadline, once', async () => {
    const { threads } = await threadlineApi();
    const continuations = async () =>
      (await shownIds()).filter((id) => threads.model.thread(id)?.thread.forkedFromId === PLAIN);
    // The fixture's own fork of that thread is a Codex thread too; ours is the one in our home.
    const ours = async () =>
      (await continuations()).filter((id) => {
        const item = threads.provider.getTreeItem(threads.model.thread(id) as ThreadNode);
        return item.contextValue === 'thread';
      });
    assert.deepEqual(await ours(), []);
    await vscode.commands.executeCommand('threadline.openFromTree', PLAIN);
    await waitFor(async () => (await ours()).length === 1, 10_000);
    const [continued] = await ours();
    assert.equal(threads.model.thread(continued!)!.thread.preview, 'Say hello');
    await vscode.commands.executeCommand('threadline.openFromTree', PLAIN);
    assert.deepEqual(await ours(), [continued], 'the same continuation again');
  });
});
