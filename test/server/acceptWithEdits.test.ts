// Edit before accepting: the experimental `acceptWithEdits` decision on a file-change approval,
// through the real server and the scripted model server, in temp git repositories. What is written,
// what the fileChange item shows, what the model is told (on every wire), what a resumed thread
// holds, and that only a client that opted into experimentalApi may use it.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileChangeItem } from '../../server/protocol/fileChange';
import type { Thread } from '../../server/protocol/thread';
import { useModelServer } from '../fixtures/modelServer/server';
import type { WireFormat } from '../fixtures/modelServer/scenario';
import { agentEnv, agentHome, completedItems, startThread, startTurn, turnCompleted } from '../support/agent';
import { patchCall, repoWith, UPDATE_README } from '../support/patches';
import { useServers, type ServerProcess } from '../support/serverProcess';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

const ASK = { approvalPolicy: 'untrusted', sandboxPolicy: { type: 'workspaceWrite' } };

/** Whether a model request's body holds `text` (newlines and quotes escaped as JSON escapes them). */
const requestHas = (request: { body: unknown } | undefined, text: string) =>
  JSON.stringify(request?.body).includes(JSON.stringify(text).slice(1, -1));

const EDIT_NOTE = 'The user edited your patch before accepting it';

function completedChange(server: ServerProcess, turnId: string): FileChangeItem {
  const item = completedItems(server, turnId).find((i) => i.type === 'fileChange');
  assert.ok(item, 'the fileChange item completed');
  return item as FileChangeItem;
}

/** Answers the turn's file-change approval with `decision`; returns the request. */
async function answerApproval(server: ServerProcess, decision: unknown) {
  const request = await server.next((m) => m.method === 'item/fileChange/requestApproval' && m.id != null);
  server.send({ id: request.id, result: { decision } });
  return request;
}

const withEdits = (files: { path: string; content: string }[]) => ({ acceptWithEdits: { files } });

function describeWire(wire: WireFormat) {
  describe(`acceptWithEdits over the ${wire} wire`, function () {
    const model = useModelServer();
    const start = useServers();
    const serve = (home = agentHome(wire, model.baseUrl)) =>
      start(home, 'threadline_vscode', agentEnv, { experimentalApi: true });

    it('writes the edited file, applies the unlisted one as proposed, and tells the model with the diff', async () => {
      const repo = repoWith({ 'README.md': '# Demo\nold line\n' });
      model.script(patchCall(UPDATE_README), { output: [{ text: 'Noted.' }] });
      const server = await serve();
      assert.deepEqual(server.initializeResult?.threadline, { acceptWithEdits: true, turnChanges: true });
      const threadId = await startThread(server, repo);
      const turn = await startTurn(server, threadId, 'Edit the readme', ASK);
      const readme = join(repo, 'README.md');
      await answerApproval(server, withEdits([{ path: readme, content: '# Demo\nuser line\n' }]));
      assert.equal((await turnCompleted(server, turn.id)).status, 'completed');

      assert.equal(readFileSync(readme, 'utf8'), '# Demo\nuser line\n');
      assert.equal(readFileSync(join(repo, 'src/hello.txt'), 'utf8'), 'hello\n');
      const item = completedChange(server, turn.id);
      assert.equal(item.status, 'completed');
      assert.deepEqual(item.changes, [
        {
          path: readme,
          kind: { type: 'update', move_path: null },
          diff: '@@ -1,2 +1,2 @@\n # Demo\n-old line\n+user line\n',
        },
        { path: join(repo, 'src/hello.txt'), kind: { type: 'add' }, diff: 'hello\n' },
      ]);
      const turnDiff = server.notifications('turn/diff/updated').at(-1)?.params as { diff: string };
      assert.match(turnDiff.diff, /\n-old line\n\+user line\n/);

      const next = model.requests[1];
      assert.ok(requestHas(next, 'Success. Updated the following files:\nM README.md\nA src/hello.txt'));
      assert.ok(requestHas(next, EDIT_NOTE), 'the model is told the user edited the patch');
      assert.ok(
        requestHas(
          next,
          'diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n # Demo\n-old line\n+user line\n',
        ),
        'the model sees the final diff',
      );
      assert.ok(requestHas(next, 'diff --git a/src/hello.txt b/src/hello.txt\nnew file mode 100644'));
      server.assertSchemaClean();
    });
  });
}

describeWire('responses');
describeWire('chat');
describeWire('anthropic');

describe('acceptWithEdits', function () {
  const model = useModelServer();
  const start = useServers();
  const serve = (experimentalApi: boolean, home = agentHome('responses', model.baseUrl)) =>
    start(home, 'threadline_vscode', agentEnv, { experimentalApi });

  it('is declined from a client without experimentalApi, which is not offered it', async () => {
    const repo = repoWith({ 'README.md': '# Demo\nold line\n' });
    model.script(patchCall(UPDATE_README), { output: [{ text: 'Ok.' }] });
    const server = await serve(false);
    assert.equal(server.initializeResult?.threadline, undefined);
    assert.deepEqual(Object.keys(server.initializeResult ?? {}).sort(), [
      'codexHome',
      'platformFamily',
      'platformOs',
      'userAgent',
    ]);
    const threadId = await startThread(server, repo);
    const turn = await startTurn(server, threadId, 'Edit', ASK);
    const readme = join(repo, 'README.md');
    await answerApproval(server, withEdits([{ path: readme, content: 'sneaky\n' }]));
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    assert.equal(readFileSync(readme, 'utf8'), '# Demo\nold line\n');
    assert.equal(existsSync(join(repo, 'src/hello.txt')), false);
    assert.equal(completedChange(server, turn.id).status, 'declined');
    assert.ok(requestHas(model.requests[1], 'The user declined this patch'));
    assert.match(
      server.stderr,
      /acceptWithEdits is experimental and this client did not opt into experimentalApi; taken as decline/,
    );
  });

  it('keeps a deleted file with its edited content, writes a moved file edited, ignores a path outside the change', async () => {
    const repo = repoWith({ 'old.txt': 'remove me\n', 'a.txt': 'alpha\nbeta\n', 'c.txt': 'same\n' });
    const moveAndDelete = patch(
      '*** Delete File: old.txt',
      '*** Update File: a.txt',
      '*** Move to: b.txt',
      '@@',
      ' alpha',
      '-beta',
      '+gamma',
    );
    model.script(patchCall(moveAndDelete), { output: [{ text: 'Ok.' }] });
    const server = await serve(true);
    const threadId = await startThread(server, repo);
    const turn = await startTurn(server, threadId, 'Tidy up', ASK);
    await answerApproval(
      server,
      withEdits([
        { path: join(repo, 'old.txt'), content: 'remove me\nkept by the user\n' },
        { path: join(repo, 'a.txt'), content: 'alpha\ndelta\n' },
        { path: join(repo, 'c.txt'), content: 'not part of the change\n' },
      ]),
    );
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    assert.equal(readFileSync(join(repo, 'old.txt'), 'utf8'), 'remove me\nkept by the user\n');
    assert.equal(existsSync(join(repo, 'a.txt')), false, 'the move still happened');
    assert.equal(readFileSync(join(repo, 'b.txt'), 'utf8'), 'alpha\ndelta\n');
    assert.equal(readFileSync(join(repo, 'c.txt'), 'utf8'), 'same\n');
    assert.match(server.stderr, /acceptWithEdits names ".*c\.txt", which the change does not write; ignored/);
    assert.deepEqual(completedChange(server, turn.id).changes, [
      {
        path: join(repo, 'old.txt'),
        kind: { type: 'update', move_path: null },
        diff: '@@ -1,1 +1,2 @@\n remove me\n+kept by the user\n',
      },
      {
        path: join(repo, 'a.txt'),
        kind: { type: 'update', move_path: join(repo, 'b.txt') },
        diff: '@@ -1,2 +1,2 @@\n alpha\n-beta\n+delta\n',
      },
    ]);
    const next = model.requests[1];
    assert.ok(requestHas(next, 'Success. Updated the following files:\nM old.txt\nM b.txt'));
    assert.ok(requestHas(next, EDIT_NOTE));
    assert.ok(requestHas(next, '+++ b/b.txt\n@@ -0,0 +1,2 @@\n+alpha\n+delta\n'));
    server.assertSchemaClean();
  });

  it('takes content equal to the proposal as a plain accept, keeping CRLF line breaks', async () => {
    const repo = repoWith({ 'README.md': '# Demo\r\nold line\r\n' });
    model.script(patchCall(UPDATE_README), { output: [{ text: 'Ok.' }] });
    const server = await serve(true);
    const threadId = await startThread(server, repo);
    const turn = await startTurn(server, threadId, 'Edit', ASK);
    // The client shows the proposal with LF breaks; sending it back unchanged is no edit.
    await answerApproval(
      server,
      withEdits([{ path: join(repo, 'README.md'), content: '# Demo\nnew line\n' }]),
    );
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\r\nnew line\r\n');
    assert.ok(!requestHas(model.requests[1], EDIT_NOTE));
    assert.ok(
      requestHas(model.requests[1], 'Success. Updated the following files:\nM README.md\nA src/hello.txt'),
    );
  });

  it('with forSession, also lets later changes under the root go ahead without asking', async () => {
    const repo = repoWith({ 'README.md': '# Demo\nold line\n' });
    const notes = patch('*** Add File: notes.txt', '+more');
    model.script(
      patchCall(UPDATE_README, 'call_1'),
      { output: [{ text: 'One.' }] },
      patchCall(notes, 'call_2'),
      { output: [{ text: 'Two.' }] },
    );
    const server = await serve(true);
    const threadId = await startThread(server, repo);
    const first = await startTurn(server, threadId, 'Edit', ASK);
    const edits = withEdits([{ path: join(repo, 'README.md'), content: '# Demo\nuser line\n' }]);
    await answerApproval(server, { acceptWithEdits: { ...edits.acceptWithEdits, forSession: true } });
    await turnCompleted(server, first.id);
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\nuser line\n');
    const next = await startTurn(server, threadId, 'More', ASK);
    await turnCompleted(server, next.id);
    assert.equal(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'more\n');
    assert.equal(server.received.filter((m) => m.method === 'item/fileChange/requestApproval').length, 1);
  });

  it('is in the rollout: a resumed thread shows the applied item and its model history has the note', async () => {
    const repo = repoWith({ 'README.md': '# Demo\nold line\n' });
    const home = agentHome('responses', model.baseUrl);
    model.script(
      patchCall(UPDATE_README),
      { output: [{ text: 'Noted.' }] },
      { output: [{ text: 'Again.' }] },
    );
    const first = await serve(true, home);
    const threadId = await startThread(first, repo);
    const turn = await startTurn(first, threadId, 'Edit', ASK);
    await answerApproval(
      first,
      withEdits([{ path: join(repo, 'README.md'), content: '# Demo\nuser line\n' }]),
    );
    await turnCompleted(first, turn.id);
    const applied = completedChange(first, turn.id);
    await first.stop();

    const second = await serve(true, home);
    const { thread } = await second.call<{ thread: Thread }>('thread/resume', { threadId });
    const resumed = thread.turns.flatMap((t) => t.items).find((i) => i.type === 'fileChange');
    assert.deepEqual(resumed, applied);
    assert.match(JSON.stringify(resumed), /\+user line/);
    const again = await startTurn(second, threadId, 'Go on');
    await turnCompleted(second, again.id);
    const replayed = model.requests[2];
    assert.ok(requestHas(replayed, EDIT_NOTE), 'the resumed history carries the note');
    assert.ok(requestHas(replayed, '-old line\n+user line\n'));
  });
});
