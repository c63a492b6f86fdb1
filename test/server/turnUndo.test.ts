// Undoing a turn's file changes through the real server, the scripted model and real files in temp
// git repositories: what apply_patch and sandboxed commands changed is listed with diffs and put
// back, a file changed since is refused unless overwritten, the revert is a turn the model hears
// about, a rollback can take the files back with it (all or nothing), and a server killed in the
// middle of an undo leaves every file old or new and finishes the job when it starts again.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileChangeItem } from '../../server/protocol/fileChange';
import type { TurnFileChange } from '../../server/protocol/turnChanges';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, completedItems, startTurn, turnCompleted } from '../support/agent';
import { execCall, gitRepo } from '../support/commands';
import { killAtFirstReplacement, largeFiles, patchCall, repoWith, UPDATE_README } from '../support/patches';
import type { ServerProcess } from '../support/serverProcess';
import { useServers } from '../support/serverProcess';
import { until } from '../support/until';
import { underWine, unlessWine, WINE_BASH_ONLY } from '../support/underWine';

const bodyText = (request: { body: unknown }) => JSON.stringify(request.body);
const read = (path: string) => readFileSync(path, 'utf8');

interface Listed {
  files: TurnFileChange[];
  notes: string[];
}
interface Reverted {
  reverted: string[];
  skipped: { path: string; reason: string }[];
  turnId: string | null;
}

describe('undoing a turn', function () {
  this.timeout(60_000);
  const model = useModelServer();
  const start = useServers();
  let home: string;
  beforeEach(() => (home = agentHome('responses', model.baseUrl)));
  const serve = (experimentalApi = true) => start(home, 'threadline_vscode', agentEnv, { experimentalApi });

  async function threadIn(server: ServerProcess, cwd: string): Promise<string> {
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      cwd,
      approvalPolicy: 'never',
      sandbox: 'workspace-write',
    });
    return thread.id;
  }

  async function turn(server: ServerProcess, threadId: string, text = 'Change the files') {
    const started = await startTurn(server, threadId, text);
    const done = await turnCompleted(server, started.id, 20_000);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    return started.id;
  }

  const list = (server: ServerProcess, threadId: string, turnId: string) =>
    server.call<Listed>('thread/turn/changes/list', { threadId, turnId });
  const revert = (server: ServerProcess, threadId: string, turnId: string, extra = {}) =>
    server.call<Reverted>('thread/turn/changes/revert', { threadId, turnId, ...extra });

  it('puts back what apply_patch wrote, as a turn of its own that the model hears about', async () => {
    const repo = realpathSync(repoWith({ 'README.md': '# Demo\nold line\n' }));
    model.script(patchCall(UPDATE_README), { output: [{ text: 'Done.' }] });
    const server = await serve();
    const threadId = await threadIn(server, repo);
    const turnId = await turn(server, threadId);
    assert.equal(read(join(repo, 'README.md')), '# Demo\nnew line\n');

    const listed = await list(server, threadId, turnId);
    assert.deepEqual(
      listed.files.map((f) => [f.path, f.kind.type, f.conflict]),
      [
        [join(repo, 'README.md'), 'update', null],
        [join(repo, 'src/hello.txt'), 'add', null],
      ],
    );
    assert.match(
      listed.files[0]!.diff,
      /^diff --git a\/README.md b\/README.md\n[^]*-old line\n\+new line\n$/,
    );
    assert.match(listed.files[1]!.diff, /new file mode[^]*\+hello\n$/);
    assert.deepEqual(listed.notes, []);

    const result = await revert(server, threadId, turnId);
    assert.deepEqual(result.reverted.sort(), [join(repo, 'README.md'), join(repo, 'src/hello.txt')]);
    assert.deepEqual(result.skipped, []);
    assert.equal(read(join(repo, 'README.md')), '# Demo\nold line\n');
    assert.equal(existsSync(join(repo, 'src/hello.txt')), false);

    // The revert is a completed turn with a fileChange item showing what was put back.
    assert.ok(result.turnId);
    const [item] = completedItems(server, result.turnId!).filter(
      (i) => i.type === 'fileChange',
    ) as FileChangeItem[];
    assert.equal(item!.status, 'completed');
    assert.deepEqual(
      item!.changes.map((c) => [c.path, c.kind.type]),
      [
        [join(repo, 'README.md'), 'update'],
        [join(repo, 'src/hello.txt'), 'delete'],
      ],
    );
    assert.match(item!.changes[0]!.diff, /-new line\n\+old line/);
    // Nothing is left to undo in the first turn: both files now differ from what it left.
    assert.deepEqual(
      (await list(server, threadId, turnId)).files.map((f) => f.conflict),
      ['it was changed after this turn', 'it was deleted after this turn'],
    );

    // The model is told on the next turn.
    model.script({ output: [{ text: 'Understood.' }] });
    await turn(server, threadId, 'What now?');
    const last = bodyText(model.requests[model.requests.length - 1]!);
    assert.match(last, /The user undid the file changes of an earlier turn/);
    assert.match(last, /README.md/);

    // The revert can itself be undone (a redo).
    const redo = await revert(server, threadId, result.turnId!);
    assert.equal(redo.reverted.length, 2);
    assert.equal(read(join(repo, 'README.md')), '# Demo\nnew line\n');
    assert.equal(read(join(repo, 'src/hello.txt')), 'hello\n');
    server.assertSchemaClean();
  });

  it('puts back what a sandboxed command created, changed and deleted, and leaves ignored files alone', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const repo = realpathSync(gitRepo());
    writeFileSync(join(repo, 'gone.txt'), 'to be deleted\n');
    writeFileSync(join(repo, '.gitignore'), 'logs/\n');
    mkdirSync(join(repo, 'logs'));
    model.script(
      ...execCall({
        cmd: 'printf made > made.txt && echo more >> README.md && rm gone.txt && echo noise > logs/run.log && chmod +x made.txt',
      }),
    );
    const server = await serve();
    const threadId = await threadIn(server, repo);
    const turnId = await turn(server, threadId);
    assert.equal(read(join(repo, 'made.txt')), 'made');
    assert.equal(existsSync(join(repo, 'gone.txt')), false);

    const listed = await list(server, threadId, turnId);
    const byPath = new Map(listed.files.map((f) => [f.path, f]));
    assert.deepEqual([...byPath.keys()].sort(), [
      join(repo, 'README.md'),
      join(repo, 'gone.txt'),
      join(repo, 'made.txt'),
    ]);
    assert.equal(byPath.get(join(repo, 'made.txt'))!.kind.type, 'add');
    assert.equal(byPath.get(join(repo, 'gone.txt'))!.kind.type, 'delete');
    assert.match(byPath.get(join(repo, 'README.md'))!.diff, / # demo\n\+more\n$/);

    const result = await revert(server, threadId, turnId);
    assert.equal(result.reverted.length, 3);
    assert.equal(read(join(repo, 'README.md')), '# demo\n');
    assert.equal(read(join(repo, 'gone.txt')), 'to be deleted\n');
    assert.equal(existsSync(join(repo, 'made.txt')), false);
    assert.equal(
      read(join(repo, 'logs/run.log')),
      'noise\n',
      'an ignored file is not part of the checkpoint',
    );
  });

  it('refuses a file changed since the turn with the reason, and overwrites it only when asked', async () => {
    const repo = realpathSync(repoWith({ 'README.md': '# Demo\nold line\n' }));
    model.script(patchCall(UPDATE_README), { output: [{ text: 'Done.' }] });
    const server = await serve();
    const threadId = await threadIn(server, repo);
    const turnId = await turn(server, threadId);
    writeFileSync(join(repo, 'README.md'), '# Demo\nthe user edited this\n');

    const listed = await list(server, threadId, turnId);
    assert.equal(listed.files[0]!.conflict, 'it was changed after this turn');
    const partial = await revert(server, threadId, turnId);
    assert.deepEqual(partial.reverted, [join(repo, 'src/hello.txt')]);
    assert.deepEqual(partial.skipped, [
      { path: join(repo, 'README.md'), reason: 'it was changed after this turn' },
    ]);
    assert.equal(read(join(repo, 'README.md')), '# Demo\nthe user edited this\n', 'the user’s edit is kept');

    const forced = await revert(server, threadId, turnId, {
      overwrite: true,
      paths: [join(repo, 'README.md')],
    });
    assert.deepEqual(forced.reverted, [join(repo, 'README.md')]);
    assert.equal(read(join(repo, 'README.md')), '# Demo\nold line\n');
    // The overwritten edit is kept in the revert turn's checkpoint, so it can be had back.
    await revert(server, threadId, forced.turnId!);
    assert.equal(read(join(repo, 'README.md')), '# Demo\nthe user edited this\n');
  });

  it('answers bad requests with errors and keeps the method for clients that opted in', async () => {
    const repo = realpathSync(repoWith({ 'README.md': '# Demo\nold line\n' }));
    const plain = await serve(false);
    const threadId = await threadIn(plain, repo);
    const gated = await plain.request('thread/turn/changes/list', { threadId, turnId: 'x' });
    assert.equal(gated.error?.code, -32600);
    assert.match(gated.error!.message, /experimentalApi/);

    const server = await serve();
    const unknownTurn = await server.request('thread/turn/changes/list', {
      threadId,
      turnId: 'no-such-turn',
    });
    assert.equal(unknownTurn.error?.code, -32602);
    const traversal = await server.request('thread/turn/changes/revert', {
      threadId: '../../etc',
      turnId: 'x',
    });
    assert.ok(traversal.error, 'an id that is a path is refused');
    assert.ok(server.alive);
  });

  it('rolls back with the files of the dropped turns, or changes nothing when one was edited since', async () => {
    const repo = realpathSync(repoWith({ 'README.md': '# Demo\nold line\n' }));
    const second = [
      '*** Begin Patch',
      '*** Update File: src/hello.txt',
      '@@',
      '-hello',
      '+hello again',
      '*** End Patch',
    ];
    model.script(patchCall(UPDATE_README), { output: [{ text: 'Done.' }] }, patchCall(second.join('\n')), {
      output: [{ text: 'Done again.' }],
    });
    const server = await serve();
    const threadId = await threadIn(server, repo);
    await turn(server, threadId);
    await turn(server, threadId);
    assert.equal(read(join(repo, 'src/hello.txt')), 'hello again\n');

    writeFileSync(join(repo, 'README.md'), 'edited by the user\n');
    const refused = await server.request('thread/rollback', { threadId, numTurns: 2, revertFiles: true });
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error!.message, /README.md \(it was changed after this turn\)/);
    assert.equal(read(join(repo, 'src/hello.txt')), 'hello again\n', 'nothing was reverted');
    const { thread } = await server.call<{ thread: { turns: unknown[] } }>('thread/read', {
      threadId,
      includeTurns: true,
    });
    assert.equal(thread.turns.length, 2, 'nothing was rolled back');

    writeFileSync(join(repo, 'README.md'), '# Demo\nnew line\n');
    const rolled = await server.call<{ thread: { turns: unknown[] } }>('thread/rollback', {
      threadId,
      numTurns: 2,
      revertFiles: true,
    });
    assert.equal(rolled.thread.turns.length, 0);
    assert.equal(read(join(repo, 'README.md')), '# Demo\nold line\n');
    assert.equal(existsSync(join(repo, 'src/hello.txt')), false);
  });

  it('removes the checkpoints with the thread, and those of threads gone while it was stopped', async () => {
    const repo = realpathSync(repoWith({ 'README.md': '# Demo\nold line\n' }));
    model.script(patchCall(UPDATE_README), { output: [{ text: 'Done.' }] }, patchCall(UPDATE_README), {
      output: [{ text: 'Done.' }],
    });
    const server = await serve();
    const kept = await threadIn(server, repo);
    await turn(server, kept);
    const checkpoints = join(home, 'checkpoints');
    assert.ok(readdirSync(join(checkpoints, kept, 'blobs')).length > 0, 'contents were stored');

    writeFileSync(join(repo, 'README.md'), '# Demo\nold line\n');
    const deleted = await threadIn(server, repo);
    await turn(server, deleted);
    assert.deepEqual(readdirSync(checkpoints).sort(), [kept, deleted].sort());
    await server.call('thread/delete', { threadId: deleted });
    assert.deepEqual(readdirSync(checkpoints), [kept]);
    assert.deepEqual(
      readdirSync(join(home, 'thread-settings')),
      [`${kept}.json`],
      'its saved settings go too',
    );
    const listed = await server.call<{ data: { id: string }[] }>('thread/list', {});
    assert.deepEqual(
      listed.data.map((t) => t.id),
      [kept],
    );
    const again = await server.request('thread/read', { threadId: deleted });
    assert.equal(again.error?.code, -32600);

    // A thread whose rollout vanished while no server ran loses its checkpoints at the next start.
    await server.stop();
    const orphan = join(checkpoints, '0199aaaa-0000-7000-8000-000000000000');
    mkdirSync(join(orphan, 'blobs'), { recursive: true });
    await serve();
    await until(() => !existsSync(orphan));
    assert.ok(existsSync(join(checkpoints, kept)), 'a living thread keeps its checkpoints');
  });
});

describe('undoing a turn when the server is killed in the middle', function () {
  this.timeout(90_000);
  // Under Wine each file call costs several times more: fewer files still put the kill in the middle.
  const FILES = underWine() ? 50 : 200;
  const model = useModelServer();
  const start = useServers();

  it('leaves each file old or new, and finishes the undo when it starts again', async () => {
    const home = agentHome('responses', model.baseUrl);
    const repo = realpathSync(repoWith({}));
    const files = largeFiles(repo, FILES);
    model.script(patchCall(files.patch), {
      output: [{ text: 'Done.' }],
    });
    const server = await start(home, 'threadline_vscode', agentEnv, { experimentalApi: true });
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      cwd: repo,
      approvalPolicy: 'never',
      sandbox: 'workspace-write',
    });
    const started = await startTurn(server, thread.id, 'Rename the headers');
    await turnCompleted(server, started.id, 30_000);
    assert.equal(files.state(0), 'new');

    const killed = killAtFirstReplacement(repo, server.child);
    server.send({
      id: 'undo',
      method: 'thread/turn/changes/revert',
      params: { threadId: thread.id, turnId: started.id },
    });
    await killed;
    assert.equal((await server.exited).signal, 'SIGKILL');

    const after = files.states();
    const reverted = after.filter((s) => s === 'old').length;
    console.log(`      killed after ${reverted} of ${FILES} files were put back`);
    assert.ok(reverted >= 1 && reverted < FILES, `the kill came in the middle (${reverted} reverted)`);

    // The next start finishes the undo from its journal.
    const again = await start(home, 'threadline_vscode', agentEnv, { experimentalApi: true });
    await until(() => files.states().every((s) => s === 'old'), 20_000);
    const leftovers = files.strays();
    assert.ok(leftovers.length <= 1, leftovers.join(', '));
    // Logged once the last file is written.
    await until(() => /finished an interrupted revert of \d+ file/.test(again.stderr), 10_000);
  });
});
