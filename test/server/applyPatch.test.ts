// apply_patch through the real server and the scripted model server, in temp git repositories:
// the fileChange item, its approval with each decision, acceptForSession for a root, refusals,
// patches that do not fit, turn/diff/updated, and what the model is told.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { FileChangeItem } from '../../server/protocol/fileChange';
import type { ThreadItem } from '../../server/protocol/items';
import { useModelServer } from '../fixtures/modelServer/server';
import type { WireFormat } from '../fixtures/modelServer/scenario';
import { agentEnv, agentHome, completedItems, startThread, startTurn, turnCompleted } from '../support/agent';
import type { Incoming } from '../support/messageLog';
import { patchCall, repoWith, UPDATE_README } from '../support/patches';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';
import { unlessWine, WINE_NO_LINKS } from '../support/underWine';

const bodyText = (request: { body: unknown }) => JSON.stringify(request.body);

const fileChanges = (server: ServerProcess, turnId: string, method: 'item/started' | 'item/completed') =>
  server
    .notifications(method)
    .map((m) => m.params as { turnId: string; item: ThreadItem })
    .filter((p) => p.turnId === turnId && p.item.type === 'fileChange')
    .map((p) => p.item as FileChangeItem);

/** The next file-change approval request this test has not answered yet. */
async function nextApproval(server: ServerProcess): Promise<Incoming> {
  const seen = answered.get(server) ?? new Set();
  answered.set(server, seen);
  const request = await server.next(
    (m) => m.method === 'item/fileChange/requestApproval' && m.id !== undefined && !seen.has(m.id!),
  );
  seen.add(request.id!);
  return request;
}
const answered = new WeakMap<ServerProcess, Set<unknown>>();

const answer = (server: ServerProcess, request: Incoming, decision: unknown) =>
  server.send({ id: request.id, result: { decision } });

async function answerApproval(server: ServerProcess, decision: unknown): Promise<Incoming> {
  const request = await nextApproval(server);
  answer(server, request, decision);
  return request;
}

function describeWire(wire: WireFormat, custom: boolean) {
  describe(`apply_patch over the ${wire} wire`, function () {
    const model = useModelServer();
    const start = useServers();
    const serve = () => start(agentHome(wire, model.baseUrl), 'threadline_vscode', agentEnv);

    async function patchTurn(server: ServerProcess, threadId: string, overrides: Record<string, unknown>) {
      return startTurn(server, threadId, 'Edit the readme', overrides);
    }

    it('applies a patch inside the workspace without asking, with the item, the diff and the model told', async () => {
      const repo = repoWith({ 'README.md': '# Demo\nold line\n' });
      model.script(patchCall(UPDATE_README, 'call_patch', custom), { output: [{ text: 'Done.' }] });
      const server = await serve();
      const threadId = await startThread(server, repo);
      const turn = await patchTurn(server, threadId, {
        approvalPolicy: 'on-request',
        sandboxPolicy: { type: 'workspaceWrite' },
      });
      const done = await turnCompleted(server, turn.id);
      assert.equal(done.status, 'completed');

      assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\nnew line\n');
      assert.equal(readFileSync(join(repo, 'src/hello.txt'), 'utf8'), 'hello\n');
      const [started] = fileChanges(server, turn.id, 'item/started');
      const [completed] = fileChanges(server, turn.id, 'item/completed');
      assert.equal(started.status, 'inProgress');
      assert.equal(completed.status, 'completed');
      assert.equal(completed.id, started.id);
      // The tool's answer streams as the item's output before the item completes.
      const output = server.received.findIndex((m) => m.method === 'item/fileChange/outputDelta');
      const ended = server.received.findIndex(
        (m) => m.method === 'item/completed' && (m.params as { item: { id: string } }).item.id === started.id,
      );
      assert.ok(output >= 0 && output < ended, 'the output comes before the item completes');
      assert.deepEqual(server.received[output]!.params, {
        threadId,
        turnId: turn.id,
        itemId: started.id,
        delta: 'Success. Updated the following files:\nM README.md\nA src/hello.txt',
      });
      assert.deepEqual(completed.changes, [
        {
          path: join(repo, 'README.md'),
          kind: { type: 'update', move_path: null },
          diff: '@@ -1,2 +1,2 @@\n # Demo\n-old line\n+new line\n',
        },
        { path: join(repo, 'src/hello.txt'), kind: { type: 'add' }, diff: 'hello\n' },
      ]);
      assert.equal(server.received.filter((m) => m.method === 'item/fileChange/requestApproval').length, 0);

      const diff = (await server.notification('turn/diff/updated')).params as {
        turnId: string;
        diff: string;
      };
      assert.equal(diff.turnId, turn.id);
      assert.equal(
        diff.diff,
        [
          'diff --git a/README.md b/README.md',
          '--- a/README.md',
          '+++ b/README.md',
          '@@ -1,2 +1,2 @@',
          ' # Demo',
          '-old line',
          '+new line',
          'diff --git a/src/hello.txt b/src/hello.txt',
          'new file mode 100644',
          '--- /dev/null',
          '+++ b/src/hello.txt',
          '@@ -0,0 +1,1 @@',
          '+hello',
          '',
        ].join('\n'),
      );
      const second = bodyText(model.requests[1]!);
      assert.match(second, /call_patch/);
      assert.match(second, /Success. Updated the following files:\\nM README.md\\nA src\/hello.txt/);
      assert.match(bodyText(model.requests[0]!), /apply_patch/, 'the tool was offered');
      server.assertSchemaClean();
    });

    it('tells the model when a patch does not fit, and shows no item', async () => {
      const repo = repoWith({ 'README.md': '# Demo\nsomething else\n' });
      model.script(patchCall(UPDATE_README, 'call_bad', custom), { output: [{ text: 'I will re-read.' }] });
      const server = await serve();
      const threadId = await startThread(server, repo);
      const done = await turnCompleted(server, (await patchTurn(server, threadId, {})).id);
      assert.equal(done.status, 'completed');
      assert.equal(fileChanges(server, done.id, 'item/started').length, 0);
      assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\nsomething else\n');
      assert.equal(existsSync(join(repo, 'src/hello.txt')), false);
      assert.match(bodyText(model.requests[1]!), /these lines were not found/);
    });
  });
}

describeWire('responses', true);
describeWire('chat', true);
describeWire('anthropic', true);

describe('apply_patch approvals', function () {
  const model = useModelServer();
  const start = useServers();
  const serve = () => start(agentHome('responses', model.baseUrl), 'threadline_vscode', agentEnv);
  const ASK = { approvalPolicy: 'untrusted', sandboxPolicy: { type: 'workspaceWrite' } };

  for (const decision of ['accept', 'decline'] as const) {
    it(`asks before writing, then ${decision === 'accept' ? 'applies' : 'leaves the disk as it was'} on ${decision}`, async () => {
      const repo = repoWith({ 'README.md': '# Demo\nold line\n' });
      model.script(patchCall(UPDATE_README), { output: [{ text: 'Ok.' }] });
      const server = await serve();
      const threadId = await startThread(server, repo);
      const turn = await startTurn(server, threadId, 'Edit', ASK);

      const startedMessage = await server.notification(
        'item/started',
        (p) => (p.item as ThreadItem).type === 'fileChange',
      );
      const started = (startedMessage.params as { item: FileChangeItem }).item;
      const request = await nextApproval(server);
      const params = request.params as Record<string, unknown>;
      assert.equal(params.threadId, threadId);
      assert.equal(params.turnId, turn.id);
      assert.equal(params.itemId, started.id);
      assert.equal(params.grantRoot, repo);
      assert.equal(typeof params.startedAtMs, 'number');
      assert.equal(
        readFileSync(join(repo, 'README.md'), 'utf8'),
        '# Demo\nold line\n',
        'nothing before the answer',
      );
      answer(server, request, decision);

      const done = await turnCompleted(server, turn.id);
      assert.equal(done.status, 'completed');
      const resolved = await server.notification('serverRequest/resolved');
      assert.equal((resolved.params as { requestId: unknown }).requestId, request.id);
      const [completed] = fileChanges(server, turn.id, 'item/completed');
      if (decision === 'accept') {
        assert.equal(completed.status, 'completed');
        assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\nnew line\n');
      } else {
        assert.equal(completed.status, 'declined');
        assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\nold line\n');
        assert.equal(existsSync(join(repo, 'src/hello.txt')), false);
        assert.match(bodyText(model.requests[1]!), /declined this patch/);
      }
      const flags = server
        .notifications('thread/status/changed')
        .map((m) => (m.params as { status: { activeFlags?: string[] } }).status.activeFlags ?? []);
      assert.ok(
        flags.some((f) => f.includes('waitingOnApproval')),
        'the thread showed it was waiting',
      );
      server.assertSchemaClean();
    });
  }

  it('cancel declines the change and interrupts the turn', async () => {
    const repo = repoWith({ 'README.md': '# Demo\nold line\n' });
    model.script(patchCall(UPDATE_README), { output: [{ text: 'never sent' }] });
    const server = await serve();
    const threadId = await startThread(server, repo);
    const turn = await startTurn(server, threadId, 'Edit', ASK);
    await answerApproval(server, 'cancel');
    const done = await turnCompleted(server, turn.id);
    assert.equal(done.status, 'interrupted');
    assert.equal(fileChanges(server, turn.id, 'item/completed')[0].status, 'declined');
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\nold line\n');
    assert.equal(model.requests.length, 1, 'the model is not asked again');
  });

  it('remembers acceptForSession for the root: the next patch in the thread is not asked about', async () => {
    const repo = repoWith({ 'README.md': '# Demo\nold line\n' });
    const second = ['*** Begin Patch', '*** Add File: notes.txt', '+more', '*** End Patch'].join('\n');
    model.script(
      patchCall(UPDATE_README, 'call_1'),
      { output: [{ text: 'One.' }] },
      patchCall(second, 'call_2'),
      { output: [{ text: 'Two.' }] },
    );
    const server = await serve();
    const threadId = await startThread(server, repo);
    const first = await startTurn(server, threadId, 'Edit', ASK);
    await answerApproval(server, 'acceptForSession');
    assert.equal((await turnCompleted(server, first.id)).status, 'completed');
    const next = await startTurn(server, threadId, 'Edit more', ASK);
    assert.equal((await turnCompleted(server, next.id)).status, 'completed');
    assert.equal(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'more\n');
    assert.equal(server.received.filter((m) => m.method === 'item/fileChange/requestApproval').length, 1);
    assert.equal(fileChanges(server, next.id, 'item/completed')[0].status, 'completed');
  });

  it('a session grant for the root covers neither .git nor a link out of it: both are asked about again', async function () {
    unlessWine(this, WINE_NO_LINKS);
    const repo = repoWith({ 'README.md': '# Demo\nold line\n' });
    const outside = tempDir('threadline-outside-');
    symlinkSync(outside, join(repo, 'linked'));
    const add = (path: string) =>
      ['*** Begin Patch', `*** Add File: ${path}`, '+x', '*** End Patch'].join('\n');
    model.script(
      patchCall(UPDATE_README, 'call_1'),
      { output: [{ text: 'One.' }] },
      patchCall(add('.git/hooks/pre-commit'), 'call_2'),
      { output: [{ text: 'Two.' }] },
      patchCall(add('linked/planted.txt'), 'call_3'),
      { output: [{ text: 'Three.' }] },
    );
    const server = await serve();
    const threadId = await startThread(server, repo);
    const first = await startTurn(server, threadId, 'Edit', ASK);
    await answerApproval(server, 'acceptForSession');
    assert.equal((await turnCompleted(server, first.id)).status, 'completed');
    for (const [turnText, reason] of [
      ['Hook', /protected folder.*pre-commit/],
      ['Link', /outside the sandbox's writable roots: .*linked\/planted\.txt \(a link to /],
    ] as const) {
      const turn = await startTurn(server, threadId, turnText, ASK);
      const request = await answerApproval(server, 'decline');
      assert.match(String((request.params as { reason?: string }).reason), reason);
      assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    }
    assert.equal(existsSync(join(repo, '.git/hooks/pre-commit')), false);
    assert.deepEqual(readdirSync(outside), []);
  });

  it('refuses writes outside the writable roots when the policy never asks', async () => {
    const repo = repoWith({ 'README.md': '# Demo\nold line\n' });
    model.script(patchCall(UPDATE_README), { output: [{ text: 'Ok.' }] });
    const server = await serve();
    const threadId = await startThread(server, repo);
    const turn = await startTurn(server, threadId, 'Edit', {
      approvalPolicy: 'never',
      sandboxPolicy: { type: 'readOnly' },
    });
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# Demo\nold line\n');
    assert.equal(fileChanges(server, turn.id, 'item/started').length, 0);
    assert.match(bodyText(model.requests[1]!), /apply_patch refused: the patch writes outside/);
  });

  it('asks about a path that escapes the workspace through ..', async () => {
    const repo = repoWith({ 'README.md': '# Demo\n' });
    const escape = ['*** Begin Patch', '*** Add File: ../escaped.txt', '+x', '*** End Patch'].join('\n');
    model.script(patchCall(escape), { output: [{ text: 'Ok.' }] });
    const server = await serve();
    const threadId = await startThread(server, repo);
    const turn = await startTurn(server, threadId, 'Edit', {
      approvalPolicy: 'on-request',
      sandboxPolicy: { type: 'workspaceWrite', excludeSlashTmp: true, excludeTmpdirEnvVar: true },
    });
    const request = await answerApproval(server, 'decline');
    assert.match(String((request.params as { reason: string }).reason), /escaped\.txt/);
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    assert.equal(existsSync(join(repo, '..', 'escaped.txt')), false);
    assert.deepEqual(
      completedItems(server, turn.id).map((i) => i.type),
      ['userMessage', 'fileChange', 'agentMessage'],
    );
  });
});
