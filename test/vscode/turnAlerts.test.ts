// Turn ends nobody saw, as the `threadline.notifications` setting says: the status bar and the thread's
// mark always, a notification for failures only (the default), for every end, or never. No view shows
// these threads, so every end is unseen.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { threadlineApi } from './extensionApi';
import { turnOnNewThread, useScriptedTurns } from './serverUnderTest';
import { waitFor } from './treeHelpers';

const answered = { output: [{ text: 'Done.' }] };
const refused = { httpError: { status: 400, message: 'the model refused the request' } };
const setting = () => vscode.workspace.getConfiguration('threadline');

describe('turn alerts by the notifications setting', function () {
  this.timeout(60_000);
  const model = useScriptedTurns();
  after(() => setting().update('notifications', undefined, vscode.ConfigurationTarget.Global));

  for (const [when, notifies] of [
    ['off', { completed: false, failed: false }],
    ['failuresAndQuestions', { completed: false, failed: true }],
    ['always', { completed: true, failed: true }],
  ] as const) {
    it(`${when}: ${JSON.stringify(notifies)}, the status bar and the mark either way`, async () => {
      await setting().update('notifications', when, vscode.ConfigurationTarget.Global);
      const { turnAlerts } = await threadlineApi();
      const completed = await turnOnNewThread(model(), answered);
      const failed = await turnOnNewThread(model(), refused);
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
