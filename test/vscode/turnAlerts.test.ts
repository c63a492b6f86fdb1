// Turn ends nobody saw, as the `threadline.notifications` setting says: the status bar and the thread's
// mark always, a notification for failures only (the default), for every end, or never. No view shows
// these threads, so every end is unseen.
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startModelServer, type ModelServer } from '../fixtures/modelServer/server';
import { threadlineApi } from './extensionApi';
import { serverHome, useScriptedModel } from './serverUnderTest';
import { waitFor } from './treeHelpers';

const workspace = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const answered = { output: [{ text: 'Done.' }] };
const refused = { httpError: { status: 400, message: 'the model refused the request' } };
const setting = () => vscode.workspace.getConfiguration('threadline');

describe('turn alerts by the notifications setting', function () {
  this.timeout(60_000);
  let model: ModelServer;

  before(async () => {
    model = await startModelServer();
    await useScriptedModel(model.baseUrl, ['approval_policy = "never"']);
  });

  after(async () => {
    await setting().update('notifications', undefined, vscode.ConfigurationTarget.Global);
    rmSync(join(serverHome(), 'config.toml'), { force: true });
    await model.close();
  });

  afterEach(() => model.reset());

  /** Runs one turn on a new thread; answers the thread and how its turn ended. */
  async function turn(response: object): Promise<{ threadId: string; status: string }> {
    const { server } = await threadlineApi();
    const { thread } = await server.request('thread/start', { cwd: workspace() });
    let status: string | undefined;
    const subscription = server.onNotification('turn/completed', (p) => {
      if (p.threadId === thread.id) status = p.turn.status;
    });
    model.script(response as Parameters<ModelServer['script']>[0]);
    await server.request('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'Go' }] });
    await waitFor(() => status !== undefined, 20_000);
    subscription.dispose();
    return { threadId: thread.id, status: status! };
  }

  for (const [when, notifies] of [
    ['off', { completed: false, failed: false }],
    ['failuresAndQuestions', { completed: false, failed: true }],
    ['always', { completed: true, failed: true }],
  ] as const) {
    it(`${when}: ${JSON.stringify(notifies)}, the status bar and the mark either way`, async () => {
      await setting().update('notifications', when, vscode.ConfigurationTarget.Global);
      const { turnAlerts } = await threadlineApi();
      const completed = await turn(answered);
      const failed = await turn(refused);
      assert.deepEqual([completed.status, failed.status], ['completed', 'failed']);
      await waitFor(() => turnAlerts.endOf(failed.threadId) !== undefined, 10_000);
      assert.equal(turnAlerts.endOf(completed.threadId)?.status, 'completed');
      assert.equal(turnAlerts.endOf(failed.threadId)?.status, 'failed');
      assert.match(turnAlerts.statusText ?? '', /threads have news/);
      assert.deepEqual(
        {
          completed: turnAlerts.notified.includes(completed.threadId),
          failed: turnAlerts.notified.includes(failed.threadId),
        },
        notifies,
      );
    });
  }
});
